package i18n

import (
	"strconv"
	"time"
)

// How a game ended, as a table shows it: threefold's own finding (the
// Termination values of the root package, which the JSON and the store
// keep) and the site's own words (a PGN [Termination] tag, read back with
// SiteResult).
const (
	TermThreefoldClaimed      Key = "term.threefold_claimed"
	TermThreefoldAutomatic    Key = "term.threefold_automatic"
	TermFivefold              Key = "term.fivefold"
	TermFiftyMoves            Key = "term.fifty_moves"
	TermSeventyFiveMoves      Key = "term.seventy_five_moves"
	TermInsufficient          Key = "term.insufficient_material"
	TermInsufficientClaim     Key = "term.insufficient_material_claim"
	TermAgreement             Key = "term.agreement"
	TermMoveCap               Key = "term.move_cap"
	TermCheckmate             Key = "term.checkmate"
	TermStalemate             Key = "term.stalemate"
	TermResignation           Key = "term.resignation"
	TermTime                  Key = "term.time"
	TermOpponentLeft          Key = "term.opponent_left"
	TermAborted               Key = "term.aborted"
	TermNoStart               Key = "term.no_start"
	TermCheat                 Key = "term.cheat"
	TermVariantEnd            Key = "term.variant_end"
	TermUnknown               Key = "term.unknown"
	SiteNormal                Key = "site.normal" // Lichess's [Termination] tags
	SiteTimeForfeit           Key = "site.time_forfeit"
	SiteAbandoned             Key = "site.abandoned"
	SiteRulesInfraction       Key = "site.rules_infraction"
	SiteUnterminated          Key = "site.unterminated"
	SiteWonByResignation      Key = "site.won_by_resignation" // chess.com's; %[1]s the winner's username
	SiteWonByCheckmate        Key = "site.won_by_checkmate"
	SiteWonOnTime             Key = "site.won_on_time"
	SiteWonByAbandonment      Key = "site.won_by_abandonment"
	SiteDrawnByRepetition     Key = "site.drawn_by_repetition"
	SiteDrawnByAgreement      Key = "site.drawn_by_agreement"
	SiteDrawnByStalemate      Key = "site.drawn_by_stalemate"
	SiteDrawnByInsufficient   Key = "site.drawn_by_insufficient"
	SiteDrawnByTimeoutVsInsuf Key = "site.drawn_by_timeout_vs_insufficient"
	SiteDrawnByFiftyMoves     Key = "site.drawn_by_fifty_moves"

	// Two parts of a duration, the larger first: "%[1]s %[2]s" makes
	// "1 ч 2 мин 3 с" of three.
	DurationSep Key = "duration.sep"
)

// Terminations maps each Termination value of the root package (which
// this package cannot import) to its words.
var Terminations = map[string]Key{
	"threefold_claimed": TermThreefoldClaimed, "threefold_automatic": TermThreefoldAutomatic,
	"fivefold": TermFivefold, "fifty_moves": TermFiftyMoves, "seventy_five_moves": TermSeventyFiveMoves,
	"insufficient_material": TermInsufficient, "insufficient_material_claim": TermInsufficientClaim,
	"agreement": TermAgreement, "move_cap": TermMoveCap, "checkmate": TermCheckmate, "stalemate": TermStalemate,
	"resignation": TermResignation, "time": TermTime, "opponent_left": TermOpponentLeft, "aborted": TermAborted,
	"no_start": TermNoStart, "cheat": TermCheat, "variant_end": TermVariantEnd, "unknown": TermUnknown,
}

// SiteResultKeys lists the site results threefold knows the words of.
var SiteResultKeys = []Key{SiteNormal, SiteTimeForfeit, SiteAbandoned, SiteRulesInfraction, SiteUnterminated,
	SiteWonByResignation, SiteWonByCheckmate, SiteWonOnTime, SiteWonByAbandonment, SiteDrawnByRepetition,
	SiteDrawnByAgreement, SiteDrawnByStalemate, SiteDrawnByInsufficient, SiteDrawnByTimeoutVsInsuf, SiteDrawnByFiftyMoves}

// Termination says how a game ended (a Termination value, "threefold_claimed")
// in the printer's language: "threefold repetition, claimed"; a value it
// does not know is returned as it is.
func (p *Printer) Termination(value string) string {
	if k, ok := Terminations[value]; ok {
		return p.Sprintf(k)
	}
	return value
}

// SiteResult says a site's own words for how a game ended (its PGN
// [Termination] tag: "Time forfeit", "Hikaru won by resignation") in the
// printer's language; words it does not know are returned as they are.
func (p *Printer) SiteResult(words string) string {
	s, _ := p.Rephrase(words, SiteResultKeys...)
	return s
}

// Duration writes d, to the second, in the printer's language: in English
// as Go writes it ("1h2m3s"), otherwise with the language's units ("1 ч 2
// мин 3 с", "۱ ساعت و ۲ دقیقه و ۳ ثانیه"), leaving out the zero parts.
func (p *Printer) Duration(d time.Duration) string {
	d = d.Round(time.Second)
	if p.lang == English || p.lang == "" {
		return d.String()
	}
	neg := d < 0
	if neg {
		d = -d
	}
	h, m, s := int(d/time.Hour), int(d%time.Hour/time.Minute), int(d%time.Minute/time.Second)
	var parts []string
	if h > 0 {
		parts = append(parts, p.Sprintf(DelayHours, p.Number(h)))
	}
	if m > 0 {
		parts = append(parts, p.Sprintf(DelayMinutes, p.Number(m)))
	}
	if s > 0 || len(parts) == 0 {
		parts = append(parts, p.Sprintf(DelaySeconds, p.Number(s)))
	}
	out := parts[0]
	for _, part := range parts[1:] {
		out = p.Sprintf(DurationSep, out, part)
	}
	if neg {
		out = "-" + out
	}
	return out
}

// Side names a side ("white", "black", as the alert JSON writes it) as a
// subject in the printer's language: "White", "Белые"; anything else is
// returned as it is.
func (p *Printer) Side(color string) string {
	switch color {
	case "white":
		return p.Sprintf(White)
	case "black":
		return p.Sprintf(Black)
	}
	return color
}

// SideAsStored is Side, except that English keeps the word as the alert
// JSON has it ("white"): for tables and texts that show stored values.
func (p *Printer) SideAsStored(color string) string {
	if p.lang == English || p.lang == "" {
		return color
	}
	return p.Side(color)
}

// EnglishOrdinal writes n as an English ordinal: 1st, 2nd, 3rd, 11th, 22nd.
func EnglishOrdinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return strconv.Itoa(n) + suffix
}
