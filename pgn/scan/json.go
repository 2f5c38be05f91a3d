package scan

import (
	"strconv"
	"unicode/utf8"
)

// appendJSON appends r's JSON line (without the newline) to b: the bytes
// encoding/json writes for r with HTML escaping off, field for field,
// written directly, without reflection (TestAppendJSONMatchesEncodingJSON
// holds the two together). It is most of what scan --json does per game
// besides the replay.
func (r *Report) appendJSON(b []byte) []byte {
	b = r.appendJSONHead(b)
	if r.jsonTail != nil {
		return append(b, r.jsonTail...)
	}
	return r.appendJSONTail(b)
}

// appendJSONHead appends the start of r's JSON line, up to its id: what
// Run knows only once the games are in input order.
func (r *Report) appendJSONHead(b []byte) []byte {
	b = append(b, `{"file":`...)
	b = appendJSONString(b, r.File)
	b = append(b, `,"id":`...)
	return strconv.AppendInt(b, int64(r.ID), 10)
}

// appendJSONTail appends the rest of r's JSON line, after its id.
func (r *Report) appendJSONTail(b []byte) []byte {
	b = append(b, `,"plies":`...)
	b = strconv.AppendInt(b, int64(r.Plies), 10)
	b = append(b, `,"max_occurrences":`...)
	b = strconv.AppendInt(b, int64(r.MaxOccurrences), 10)
	b = append(b, `,"threefold_plies":`...)
	b = appendJSONInts(b, r.ThreefoldPlies)
	b = append(b, `,"fivefold_ply":`...)
	b = appendJSONIntPtr(b, r.FivefoldPly)
	b = append(b, `,"claimable_plies":`...)
	b = appendJSONInts(b, r.ClaimablePlies)
	b = append(b, `,"final_fen":`...)
	b = appendJSONString(b, r.FinalFEN)
	b = append(b, `,"start_fen":`...)
	if r.StartFEN == nil {
		b = append(b, "null"...)
	} else {
		b = appendJSONString(b, *r.StartFEN)
	}
	b = appendJSONOmitEmpty(b, `,"error":`, r.Error)
	b = append(b, `,"variant":`...)
	b = appendJSONString(b, r.Variant)
	b = append(b, `,"line":`...)
	b = strconv.AppendInt(b, int64(r.Line), 10)
	b = appendJSONOmitEmpty(b, `,"white":`, r.White)
	b = appendJSONOmitEmpty(b, `,"black":`, r.Black)
	b = appendJSONOmitEmpty(b, `,"event":`, r.Event)
	b = appendJSONOmitEmpty(b, `,"date":`, r.Date)
	b = appendJSONOmitEmpty(b, `,"result":`, r.Result)
	if r.FirstThreefold != nil {
		b = append(b, `,"first_threefold":`...)
		b = r.FirstThreefold.appendJSON(b)
	}
	if r.FirstClaim != nil {
		b = append(b, `,"first_claim":`...)
		b = r.FirstClaim.appendJSON(b)
	}
	b = append(b, `,"fifty_moves_ply":`...)
	b = appendJSONIntPtr(b, r.FiftyMovesPly)
	b = append(b, `,"seventy_five_moves_ply":`...)
	b = appendJSONIntPtr(b, r.SeventyFiveMovesPly)
	if r.PliesAfterFivefold != 0 {
		b = append(b, `,"plies_after_fivefold":`...)
		b = strconv.AppendInt(b, int64(r.PliesAfterFivefold), 10)
	}
	b = appendJSONOmitEmpty(b, `,"final_status":`, r.FinalStatus)
	if len(r.Notes) > 0 {
		b = append(b, `,"notes":`...)
		b = appendJSONStrings(b, r.Notes)
	}
	if len(r.NearRepetitions) > 0 {
		b = append(b, `,"near_repetitions":[`...)
		for i := range r.NearRepetitions {
			if i > 0 {
				b = append(b, ',')
			}
			n := &r.NearRepetitions[i]
			b = append(b, `{"ply":`...)
			b = strconv.AppendInt(b, int64(n.Ply), 10)
			b = append(b, `,"same_placement_as":`...)
			b = appendJSONInts(b, n.SamePlacementAs)
			b = append(b, `,"differences":`...)
			b = appendJSONStrings(b, n.Differences)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

func (p *Repetition) appendJSON(b []byte) []byte {
	b = append(b, `{"ply":`...)
	b = strconv.AppendInt(b, int64(p.Ply), 10)
	b = append(b, `,"claimant":`...)
	b = appendJSONString(b, p.Claimant)
	b = append(b, `,"rule":`...)
	b = appendJSONString(b, p.Rule)
	if len(p.Occurrences) > 0 {
		b = append(b, `,"occurrences":`...)
		b = appendJSONInts(b, p.Occurrences)
	}
	if len(p.Moves) > 0 {
		b = append(b, `,"moves":`...)
		b = appendJSONStrings(b, p.Moves)
	}
	return append(b, '}')
}

// appendJSONOmitEmpty appends key (`,"name":`) and s, unless s is empty.
func appendJSONOmitEmpty(b []byte, key, s string) []byte {
	if s == "" {
		return b
	}
	return appendJSONString(append(b, key...), s)
}

func appendJSONIntPtr(b []byte, p *int) []byte {
	if p == nil {
		return append(b, "null"...)
	}
	return strconv.AppendInt(b, int64(*p), 10)
}

func appendJSONInts(b []byte, xs []int) []byte {
	if xs == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, x := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(x), 10)
	}
	return append(b, ']')
}

func appendJSONStrings(b []byte, xs []string) []byte {
	if xs == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, x := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, x)
	}
	return append(b, ']')
}

// jsonPlain marks the bytes encoding/json writes as they are in a string
// (HTML escaping off): printable ASCII but the quote and the backslash.
var jsonPlain = func() (t [utf8.RuneSelf]bool) {
	for c := ' '; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// plainWords returns i plus 8 bytes for every run of 8 bytes of s from
// s[i] on that are all jsonPlain, looked at eight at a time: none from
// 0x80 on, none below 0x20, none a quote or a backslash. (v-n*ones)&^v
// has a high bit set exactly when a byte of v is below n, for n <= 128: a
// borrow starts only at such a byte.
func plainWords(s string, i int) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for ; i+8 <= len(s); i += 8 {
		w := s[i : i+8]
		x := uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
			uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
		q, bs := x^'"'*ones, x^'\\'*ones
		if (x|(x-0x20*ones)&^x|(q-ones)&^q|(bs-ones)&^bs)&highs != 0 {
			break
		}
	}
	return i
}

// appendJSONString appends s as encoding/json writes a string with HTML
// escaping off: control bytes as \n, \r, \t, \b, \f or \u00XX, invalid
// UTF-8 as \ufffd, U+2028 and U+2029 escaped.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := plainWords(s, 0); i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if jsonPlain[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if c == '\u2028' || c == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[c&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
