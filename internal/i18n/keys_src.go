package i18n

// Texts the alert JSON and the store keep in English (an alert's reason,
// a source's name) and that are shown to a person in the person's
// language: made in English with For(English).Sprintf, read back with
// Reason and SourceName. They take only %[n]s placeholders (see Rephrase).
const (
	// Why a withdrawn alert no longer holds (its "reason").
	ReasonCorrected    Key = "reason.corrected"     // %[1]s the first ply the source changed
	ReasonTookBack     Key = "reason.took_back"     // %[1]s the first ply taken back, %[2]s the plies left
	ReasonStartChanged Key = "reason.start_changed" // a new start position

	// The name of a source, as alerts, status and the dashboard show it.
	SourceFile             Key = "source.file" // %[1]s the path
	SourceDGT              Key = "source.dgt"  // %[1]s the LiveChess URL
	SourceLichessGame      Key = "source.lichess_game"
	SourceLichessUsers     Key = "source.lichess_users" // %[1]s the usernames, comma-separated
	SourceLichessTV        Key = "source.lichess_tv"
	SourceLichessTVChannel Key = "source.lichess_tv_channel"
	SourceLichessBroadcast Key = "source.lichess_broadcast_tour"
	SourceLichessRound     Key = "source.lichess_broadcast_round"
	SourceLichessBot       Key = "source.lichess_bot"
	SourceLichessBotNamed  Key = "source.lichess_bot_named" // %[1]s the bot's account
	SourceChessCom         Key = "source.chesscom"          // %[1]s the target as given (chesscom:player:…)
)

// Why the dashboard cannot follow a game to its end (a game view's
// "attention"); the errors they quote are the rules' own, in English.
const (
	AttnBadStart   Key = "attn.bad_start"  // %[1]s the error
	AttnBadMove    Key = "attn.bad_move"   // %[1]s the ply, %[2]s the move as the source wrote it, %[3]s the error
	AttnTooLong    Key = "attn.too_long"   // %[1]s the limit in plies
	AttnUnreadable Key = "attn.unreadable" // %[1]s the last ply read, %[2]s the source's error
)

// A move the rules cannot play, as the rules package says it in English
// (a rules.ReplayError around ErrIllegal, ErrAmbiguous or ErrSyntax).
const (
	MoveAtPly      Key = "move.at_ply"     // %[1]s the ply, %[2]s the move as written, %[3]s why
	MoveAtStart    Key = "move.at_start"   // %[1]s the start position as written, %[2]s why
	MoveIllegal    Key = "move.illegal"    // %[1]s the move, %[2]s the FEN
	MoveAmbiguous  Key = "move.ambiguous"  // %[1]s the move, %[2]s the FEN, %[3]s how many pieces
	MoveUnreadable Key = "move.unreadable" // %[1]s the move and why

	// What the PGN reader found wrong (a pgn.SyntaxError), the common ones.
	PGNAtLine              Key = "pgn.at_line"              // %[1]s the line, %[2]s what
	PGNUnexpectedToken     Key = "pgn.unexpected_token"     // %[1]s the token, quoted
	PGNUnterminatedComment Key = "pgn.unterminated_comment" // %[1]s the line it opened at
	PGNUnterminatedVar     Key = "pgn.unterminated_variation"
	PGNTooManyPlies        Key = "pgn.too_many_plies" // %[1]s the limit
)

// GameError says why a game could not be read to its end — an error of the
// rules about a move ("ply 6 (3...Kxe5): illegal move: Kxe5 in FEN") or of
// the PGN reader ("line 5: unexpected token \"Zz9\"") — in the printer's
// language; what it does not know (another error, or a part of one) is
// kept as it is.
func (p *Printer) GameError(english string) string {
	if m := englishRE(PGNAtLine).FindStringSubmatch(english); m != nil {
		what, _ := p.Rephrase(m[2], PGNUnexpectedToken, PGNUnterminatedComment, PGNUnterminatedVar, PGNTooManyPlies)
		return p.Sprintf(PGNAtLine, m[1], what)
	}
	outer := []Key{MoveAtPly, MoveAtStart}
	for _, k := range outer {
		m := englishRE(k).FindStringSubmatch(english)
		if m == nil {
			continue
		}
		args := make([]any, len(m)-1)
		for i, v := range m[1:] {
			args[i] = v
		}
		last := len(args) - 1
		args[last], _ = p.Rephrase(m[len(m)-1], MoveIllegal, MoveAmbiguous, MoveUnreadable)
		return p.Sprintf(k, args...)
	}
	s, _ := p.Rephrase(english, MoveIllegal, MoveAmbiguous, MoveUnreadable)
	return s
}

// AttentionKeys lists the attention texts.
var AttentionKeys = []Key{AttnBadStart, AttnBadMove, AttnTooLong, AttnUnreadable}

// ReasonKeys lists the reasons of a withdrawal.
var ReasonKeys = []Key{ReasonCorrected, ReasonTookBack, ReasonStartChanged}

// SourceKeys lists the names of sources, the most specific first.
var SourceKeys = []Key{SourceFile, SourceDGT, SourceLichessGame, SourceLichessUsers, SourceLichessTVChannel,
	SourceLichessTV, SourceLichessBroadcast, SourceLichessRound, SourceLichessBotNamed, SourceLichessBot, SourceChessCom}

// Reason says the reason of a withdrawn alert (the English text its JSON
// keeps) in the printer's language; a reason threefold did not write is
// returned as it is.
func (p *Printer) Reason(english string) string {
	s, _ := p.Rephrase(english, ReasonKeys...)
	return s
}

// SourceName says the name of a source (the English name alerts and status
// keep) in the printer's language: "file x.pgn" is «файл x.pgn» in
// Russian; ids, paths and URLs are kept. A name threefold did not make
// (a test's, a future source's) is returned as it is.
func (p *Printer) SourceName(english string) string {
	s, _ := p.Rephrase(english, SourceKeys...)
	return s
}
