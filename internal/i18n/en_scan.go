package i18n

// enScan is the scan part of the en catalog.
var enScan = catalogOf{
	ScanNothing:       s("nothing to report"),
	ScanThreefold:     s("threefold at ply %[1]s after %[2]s (plies %[3]s), %[4]s may claim"),
	ScanAgain:         pluralOf(1, "one", "; again at %[1]d more ply", "other", "; again at %[1]d more plies"),
	ScanClaimByMove:   s("claim by declared move from ply %[1]s: %[2]s may declare %[3]s"),
	ScanFivefold:      s("FIFTH occurrence at ply %[1]s after %[2]s: drawn there (9.6.1)"),
	ScanAfterFivefold: pluralOf(1, "one", ", yet %[1]d more ply was played", "other", ", yet %[1]d more plies were played"),
	ScanNear:          pluralOf(3, "one", "near repetition at ply %[1]s after %[2]s: the placement and side to move of ply %[4]s, but another position: other %[5]s", "other", "near repetition at ply %[1]s after %[2]s: the placement and side to move of plies %[4]s, but another position: other %[5]s"),
	ScanNearMore:      pluralOf(1, "one", "; %[1]d more ply like it", "other", "; %[1]d more plies like it"),
	ScanNearCastling:  s("castling rights"),
	ScanNearEnPassant: s("en passant captures"),
	ScanAnd:           s(" and "),
	ScanFifty:         s("50-move claim from ply %[1]s"),
	ScanSeventyFive:   s("75-move rule at ply %[1]s: drawn there (9.6.2)"),
	ScanPartSep:       s("; "),
	ScanNote:          s("note: %[1]s"),
	ScanError:         s("ERROR: %[1]s"),
	ScanTheStart:      s("the start"),
	ScanGames:         pluralOf(1, "one", "%[1]d game", "other", "%[1]d games"),
	ScanPlies:         pluralOf(1, "one", "%[1]d ply", "other", "%[1]d plies"),
	ScanRate:          s(" in %[1]ss (%[2]s plies/s)"),
	ScanTotals:        s("%[1]d with a threefold, %[2]d more with a claim by declared move only, %[3]d fivefold, %[4]d past the 75-move rule, %[5]d with errors"),
	ScanThousands:     s("%[1]sk"),
	ScanMillions:      s("%[1]sM"),
	ScanPerSecond:     s("%[1]s plies/s"),
}
