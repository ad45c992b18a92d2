"""Post-game analyses of finished tables (issue 27): computed in the bot workers, kept in the database."""
