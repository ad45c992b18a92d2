"""Running a site: backups, structured logs and metrics (issue 30)."""
