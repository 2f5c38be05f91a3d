package i18n

// enSrc is the src part of the en catalog: the English texts the alert
// JSON keeps, exactly as threefold has always written them.
var enSrc = catalogOf{
	ReasonCorrected:    s("the source corrected the moves from ply %[1]s"),
	ReasonTookBack:     s("the source took back the moves from ply %[1]s: the game now has %[2]s"),
	ReasonStartChanged: s("the source changed the start position"),

	SourceFile:             s("file %[1]s"),
	SourceDGT:              s("dgt %[1]s"),
	SourceLichessGame:      s("lichess game %[1]s"),
	SourceLichessUsers:     s("lichess users %[1]s"),
	SourceLichessTV:        s("lichess tv"),
	SourceLichessTVChannel: s("lichess tv %[1]s"),
	SourceLichessBroadcast: s("lichess broadcast tour %[1]s"),
	SourceLichessRound:     s("lichess broadcast round %[1]s"),
	SourceLichessBot:       s("lichess bot"),
	SourceLichessBotNamed:  s("lichess bot %[1]s"),
	SourceChessCom:         s("chess.com %[1]s"),
	AttnBadStart:           s("bad start position: %[1]s"),
	AttnBadMove:            s("move %[1]s (%[2]s) cannot be played: %[3]s"),
	AttnTooLong:            s("more than %[1]s plies (limit pgn.max_plies): followed up to there"),
	AttnUnreadable:         s("the source could not read the game past ply %[1]s: %[2]s"),
	MoveAtPly:              s("ply %[1]s (%[2]s): %[3]s"),
	MoveAtStart:            s("start position %[1]s: %[2]s"),
	MoveIllegal:            s("illegal move: %[1]s in %[2]s"),
	MoveAmbiguous:          s("ambiguous move: %[1]s in %[2]s: %[3]s pieces can make it"),
	MoveUnreadable:         s("unreadable move: %[1]s"),
	PGNAtLine:              s("line %[1]s: %[2]s"),
	PGNUnexpectedToken:     s("unexpected token %[1]s"),
	PGNUnterminatedComment: s("unterminated comment opened at line %[1]s"),
	PGNUnterminatedVar:     s("unterminated variation opened at line %[1]s"),
	PGNTooManyPlies:        s("more than %[1]s plies (limit pgn.max_plies)"),
}
