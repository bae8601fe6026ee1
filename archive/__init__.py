"""The archive: rounds played on the forum before this site, imported from their posts (`forum`), and whole
leagues moved between instances as JSON (`transfer`, and the export_league / import_league commands). It
reads and writes through the apps below it (rounds, submissions, scoring); nothing below imports it."""
