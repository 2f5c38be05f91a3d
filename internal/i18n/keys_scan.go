package i18n

// scan's per-game lines and totals (pgn/scan).
const (
	ScanNothing       Key = "scan.nothing"
	ScanThreefold     Key = "scan.threefold"
	ScanAgain         Key = "scan.again"
	ScanClaimByMove   Key = "scan.claim_by_move"
	ScanFivefold      Key = "scan.fivefold"
	ScanAfterFivefold Key = "scan.after_fivefold"
	ScanNear          Key = "scan.near"
	ScanNearMore      Key = "scan.near_more"
	ScanNearCastling  Key = "scan.near_castling"
	ScanNearEnPassant Key = "scan.near_en_passant"
	ScanAnd           Key = "scan.and"
	ScanFifty         Key = "scan.fifty_moves"
	ScanSeventyFive   Key = "scan.seventy_five_moves"
	ScanPartSep       Key = "scan.part_sep"
	ScanNote          Key = "scan.note"
	ScanError         Key = "scan.error"
	ScanTheStart      Key = "scan.the_start"
	ScanGames         Key = "scan.games"
	ScanPlies         Key = "scan.plies"
	ScanRate          Key = "scan.rate"
	ScanTotals        Key = "scan.totals"
	ScanThousands     Key = "scan.thousands"  // a rate: "340.5k"
	ScanMillions      Key = "scan.millions"   // "2.36M"
	ScanPerSecond     Key = "scan.per_second" // the live count's rate: "340.5k plies/s"
)
