package threefold

import (
	"time"

	"github.com/threefold-chess/threefold/rules"
)

// GameState is one game as far as it has been seen at one moment: where it
// is played and by whom, how it started, every move so far, and how it
// ended. Sources emit it, the watcher and the dashboard replay it, the
// store keeps it and the bot reports its own games with it. Its JSON form
// is the game of `threefold history --json`; the observation fields at the
// end are not part of it.
type GameState struct {
	Game   GameRef `json:"game"`   // Site+ID identify the game across snapshots, reconnects and restarts
	Source string  `json:"source"` // the name of the source that saw it
	Event  string  `json:"event,omitempty"`
	// StartFEN is the position before the first move; "" is the standard
	// start, a Chess960 position is in Shredder-FEN (rules.WriteStart
	// writes it, rules.ParseStart reads it).
	StartFEN string         `json:"start_fen,omitempty"`
	Notation rules.Notation `json:"notation"` // how Moves is written
	// Moves is the main line from StartFEN, every move so far. It is
	// read-only for everyone: a source may hand out the same backing array
	// again with more moves appended (it never changes an element it has
	// handed out), which lets a replay see an extension in constant time.
	Moves  []string `json:"moves"`
	Result string   `json:"result,omitempty"` // "*", "1-0", "0-1", "1/2-1/2", "" if unknown
	// Termination is the true reason the game ended, as found by replaying
	// it ("" while it goes on or when the moves do not say).
	Termination Termination `json:"termination,omitempty"`
	// SiteResult is how the site itself says the game ended (chess.com:
	// "Game drawn by repetition"), beside Termination, threefold's own
	// finding; "" when the site says nothing.
	SiteResult string `json:"site_result,omitempty"`
	Finished   bool   `json:"finished"`           // the game is over; no more states of it
	Audience   string `json:"audience,omitempty"` // AudienceArbiters for over-the-board games
	// Tags are the tag pairs of the game's PGN record, in their order, when
	// the source reads PGN (files, broadcasts); an export keeps them.
	Tags []Tag `json:"tags,omitempty"`

	// How the source saw it.
	// ReadError says why the source could not read the game beyond Moves
	// (a PGN syntax error or limit, with its line and token); "" when it
	// read it whole.
	ReadError string `json:"-"`
	// More says that the source emits more states at once (it is reading
	// a file): a consumer may hold its writes back until a state without it.
	More bool `json:"-"`
	// Last says that the source emits no more states of this game (a file
	// read once forgets each game it sent): a consumer may forget the
	// game once it took this state in, without waiting for corrections.
	Last       bool          `json:"-"`
	ObservedAt time.Time     `json:"-"` // when the source received this state
	Delay      time.Duration `json:"-"` // how far behind the board the source is known to be
	// DelayPlies: how many plies the board may be ahead of this state
	// (a Lichess spectator stream is 3 plies behind an ongoing game).
	DelayPlies int `json:"-"`
	// PlyAnchor says that Game.URL+"#"+ply opens the game at that ply
	// (Lichess games do).
	PlyAnchor bool `json:"-"`
	// Clocks, where the source reports clocks, is the clock after each ply
	// (Clocks[i] after ply i+1; nil where unknown; it may be shorter than
	// Moves). Read-only, like Moves.
	Clocks []*ClockReading `json:"-"`
}

// Tag is one tag pair of a PGN record: [Name "Value"].
type Tag struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// AudienceArbiters is the Audience of games and alerts from over-the-board
// play (broadcasts, DGT boards, relayed PGN files): a notice about a claim
// may go to arbiters and spectators, never to the players (FIDE 11.3).
const AudienceArbiters = "arbiters"

// AudienceOperator is the Audience of the bot's own games and their
// alerts: they are for whoever runs the bot.
const AudienceOperator = "operator"

// Termination is the true reason a game ended, found by replaying it.
// Lichess reports every draw by rule as status "draw"; these names tell
// them apart. The values are part of the JSON contracts of the bot's
// records and the stored games.
type Termination string

const (
	TermThreefoldClaimed   Termination = "threefold_claimed"   // a player claimed the third occurrence (draw/yes or a move offering a draw)
	TermThreefoldAutomatic Termination = "threefold_automatic" // Lichess drew at the third occurrence by itself
	TermFivefold           Termination = "fivefold"            // fifth occurrence (FIDE 9.6.1)
	TermFiftyMoves         Termination = "fifty_moves"         // 50 moves of each side without pawn move or capture (Lichess draws at once)
	TermSeventyFiveMoves   Termination = "seventy_five_moves"  // 75 moves of each side without pawn move or capture (FIDE 9.6.2)
	TermInsufficient       Termination = "insufficient_material"
	TermInsufficientClaim  Termination = "insufficient_material_claim" // a draw offer while the other side cannot win
	TermAgreement          Termination = "agreement"
	TermMoveCap            Termination = "move_cap" // Lichess's 600-ply limit
	TermCheckmate          Termination = "checkmate"
	TermStalemate          Termination = "stalemate"
	TermResignation        Termination = "resignation"
	TermTime               Termination = "time"          // a flag fell
	TermOpponentLeft       Termination = "opponent_left" // status timeout: a player left and the other claimed
	TermAborted            Termination = "aborted"
	TermNoStart            Termination = "no_start"
	TermCheat              Termination = "cheat"
	TermVariantEnd         Termination = "variant_end"
	TermUnknown            Termination = "unknown"
)

// BotRecord is one finished game of the bot, as the bot writes it to its
// records file (one JSON object per line) and the store keeps it.
type BotRecord struct {
	Site        string         `json:"site"` // "lichess"
	GameID      string         `json:"game_id"`
	URL         string         `json:"url"`
	White       BotPlayer      `json:"white"`
	Black       BotPlayer      `json:"black"`
	BotColor    string         `json:"bot_color"`
	Variant     string         `json:"variant"`
	Speed       string         `json:"speed,omitempty"`
	Rated       bool           `json:"rated"`
	InitialFEN  string         `json:"initial_fen"`
	Moves       []string       `json:"moves"` // UCI as Lichess sent them
	SAN         []string       `json:"san"`
	Plies       int            `json:"plies"`
	FinalFEN    string         `json:"final_fen"`
	Status      string         `json:"status"` // Lichess's status
	Winner      string         `json:"winner,omitempty"`
	Result      string         `json:"result"`
	Termination Termination    `json:"termination"`
	Occurrences []int          `json:"occurrences,omitempty"` // plies of the final position, for repetitions
	Claims      []BotClaim     `json:"claims,omitempty"`
	Engine      string         `json:"engine"`
	StartedAt   time.Time      `json:"started_at"`
	EndedAt     time.Time      `json:"ended_at"`
	RulesUsed   map[string]int `json:"rules_used,omitempty"` // how often each policy rule chose the bot's move
}

// BotStatus is the bot's own account as the dashboard shows it: its
// ratings by Lichess category (bullet, blitz, …) and its record, counted
// by Lichess at start and then game by game (aborted games do not count).
type BotStatus struct {
	Account string         `json:"account"`
	URL     string         `json:"url,omitempty"`
	Ratings map[string]int `json:"ratings,omitempty"`
	Wins    int            `json:"wins"`
	Draws   int            `json:"draws"`
	Losses  int            `json:"losses"`
	Playing int            `json:"playing"` // games running now
}

// BotPlayer is one side of a recorded game of the bot.
type BotPlayer struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Title  string `json:"title,omitempty"`
	Rating int    `json:"rating,omitempty"`
}

// BotClaim is a draw claim the bot made.
type BotClaim struct {
	Ply  int    `json:"ply"`            // the ply of the position claimed (or produced by Move)
	How  string `json:"how"`            // "draw_yes" or "move_offering_draw"
	Move string `json:"move,omitempty"` // UCI of the move, for move_offering_draw
}
