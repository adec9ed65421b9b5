"""Two-sided games solved exactly: baccara chemin de fer (:mod:`exactodds.games.chemin_de_fer`)."""
