package i18n

// trSrc is the src part of the tr catalog. Lichess's own Turkish names:
// «canlı yayın», «turnuva», «tur», «Lichess TV». Phrased so that no case
// suffix follows a value (a path, an id).
var trSrc = catalogOf{
	ReasonCorrected:    s("kaynak hamleleri düzeltti (ilk değişen yarım hamle: %[1]s)"),
	ReasonTookBack:     s("kaynak hamleleri geri aldı (ilk geri alınan yarım hamle: %[1]s); oyunda artık yarım hamle sayısı: %[2]s"),
	ReasonStartChanged: s("kaynak başlangıç konumunu değiştirdi"),

	SourceFile:             s("dosya %[1]s"),
	SourceDGT:              s("DGT tahtaları %[1]s"),
	SourceLichessGame:      s("Lichess oyunu %[1]s"),
	SourceLichessUsers:     s("Lichess oyuncuları %[1]s"),
	SourceLichessTV:        s("Lichess TV"),
	SourceLichessTVChannel: s("Lichess TV, kanal %[1]s"),
	SourceLichessBroadcast: s("Lichess canlı yayını, turnuva %[1]s"),
	SourceLichessRound:     s("Lichess canlı yayını, tur %[1]s"),
	SourceLichessBot:       s("Lichess botu"),
	SourceLichessBotNamed:  s("Lichess botu %[1]s"),
	SourceChessCom:         s("chess.com %[1]s"),
	AttnBadStart:           s("geçersiz başlangıç konumu: %[1]s"),
	AttnBadMove:            s("%[1]s. hamle (%[2]s) oynanamıyor: %[3]s"),
	AttnTooLong:            s("yarım hamle sınırı aşıldı (pgn.max_plies: %[1]s): oyun o noktaya kadar izlendi"),
	AttnUnreadable:         s("kaynak oyunu okuyamadı (son okunan yarım hamle: %[1]s): %[2]s"),
	MoveAtPly:              s("yarım hamle %[1]s (%[2]s): %[3]s"),
	MoveAtStart:            s("başlangıç konumu %[1]s: %[2]s"),
	MoveIllegal:            s("kural dışı hamle: %[1]s, konum: %[2]s"),
	MoveAmbiguous:          s("belirsiz hamle: %[1]s, konum: %[2]s; bu hamleyi yapabilen taş sayısı: %[3]s"),
	MoveUnreadable:         s("okunamayan hamle: %[1]s"),
	PGNAtLine:              s("satır %[1]s: %[2]s"),
	PGNUnexpectedToken:     s("beklenmeyen öğe %[1]s"),
	PGNUnterminatedComment: s("kapanmamış yorum (açıldığı satır: %[1]s)"),
	PGNUnterminatedVar:     s("kapanmamış varyant (açıldığı satır: %[1]s)"),
	PGNTooManyPlies:        s("yarım hamle sınırı aşıldı (pgn.max_plies: %[1]s)"),
}
