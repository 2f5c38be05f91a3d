package i18n

// faSrc is the src part of the fa catalog. Paths, ids and URLs stay in
// Latin script inside it.
var faSrc = catalogOf{
	ReasonCorrected:    s("منبع حرکت‌ها را از نیم‌حرکت %[1]s به بعد اصلاح کرد"),
	ReasonTookBack:     s("منبع حرکت‌ها را از نیم‌حرکت %[1]s به بعد پس گرفت: اکنون بازی %[2]s نیم‌حرکت دارد"),
	ReasonStartChanged: s("منبع موقعیت آغاز را تغییر داد"),

	SourceFile:             s("پروندهٔ %[1]s"),
	SourceDGT:              s("صفحه‌های DGT در %[1]s"),
	SourceLichessGame:      s("بازی Lichess %[1]s"),
	SourceLichessUsers:     s("بازیکنان Lichess %[1]s"),
	SourceLichessTV:        s("Lichess TV"),
	SourceLichessTVChannel: s("Lichess TV، کانال %[1]s"),
	SourceLichessBroadcast: s("پخش زندهٔ Lichess، مسابقهٔ %[1]s"),
	SourceLichessRound:     s("پخش زندهٔ Lichess، دور %[1]s"),
	SourceLichessBot:       s("ربات Lichess"),
	SourceLichessBotNamed:  s("ربات Lichess %[1]s"),
	SourceChessCom:         s("chess.com %[1]s"),
	AttnBadStart:           s("موقعیت آغاز نادرست است: %[1]s"),
	AttnBadMove:            s("حرکت %[1]s (%[2]s) را نمی‌توان انجام داد: %[3]s"),
	AttnTooLong:            s("بیش از %[1]s نیم‌حرکت (سقف pgn.max_plies): بازی تا همان‌جا دنبال شد"),
	AttnUnreadable:         s("منبع نتوانست بازی را پس از نیم‌حرکت %[1]s بخواند: %[2]s"),
	MoveAtPly:              s("نیم‌حرکت %[1]s (%[2]s): %[3]s"),
	MoveAtStart:            s("موقعیت آغاز %[1]s: %[2]s"),
	MoveIllegal:            s("حرکت غیرقانونی: %[1]s در %[2]s"),
	MoveAmbiguous:          s("حرکت مبهم: %[1]s در %[2]s؛ %[3]s مهره می‌توانند آن را انجام دهند"),
	MoveUnreadable:         s("حرکت ناخوانا: %[1]s"),
	PGNAtLine:              s("خط %[1]s: %[2]s"),
	PGNUnexpectedToken:     s("نشانهٔ نابجا %[1]s"),
	PGNUnterminatedComment: s("یادداشت بسته‌نشده که در خط %[1]s باز شد"),
	PGNUnterminatedVar:     s("شاخهٔ بسته‌نشده که در خط %[1]s باز شد"),
	PGNTooManyPlies:        s("بیش از %[1]s نیم‌حرکت (سقف pgn.max_plies)"),
}
