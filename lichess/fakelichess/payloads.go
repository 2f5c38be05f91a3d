package fakelichess

// The shapes the fake answers in, written for threefold: the fields of
// Lichess's payloads (as the examples of the official API description show
// them, which the tests compare these with), with values of our own. The
// fake fills in each answer's own fields (ids, players, position, status)
// before it sends one.
const (
	// payloadGameStart is a "gameStart" line of the event stream.
	payloadGameStart = `{"type":"gameStart","game":{"fullId":"tfGame01wxyz","gameId":"tfGame01","fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","color":"white","lastMove":"","source":"friend","status":{"id":20,"name":"started"},"variant":{"key":"standard","name":"Standard"},"speed":"rapid","perf":"rapid","rated":false,"hasMoved":false,"opponent":{"id":"mary","username":"Mary","rating":1500},"isMyTurn":true,"secondsLeft":600,"rating":1500,"compat":{"bot":true,"board":false},"id":"tfGame01"}}`
	// payloadGameFinish is a "gameFinish" line of the event stream.
	payloadGameFinish = `{"type":"gameFinish","game":{"fullId":"tfGame01wxyz","gameId":"tfGame01","fen":"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2","color":"white","lastMove":"e7e5","source":"friend","status":{"id":25,"name":"draw"},"variant":{"key":"standard","name":"Standard"},"speed":"rapid","perf":"rapid","rated":false,"hasMoved":true,"opponent":{"id":"mary","username":"Mary","rating":1500,"ratingDiff":0},"isMyTurn":false,"secondsLeft":590,"winner":"white","rating":1500,"ratingDiff":0,"compat":{"bot":true,"board":false},"id":"tfGame01"}}`
	// payloadChallenge is a "challenge" line of the event stream.
	payloadChallenge = `{"type":"challenge","challenge":{"id":"tfChal01","url":"https://lichess.org/tfChal01","status":"created","challenger":{"name":"Mary","flair":"activity.chess","id":"mary","rating":1500},"destUser":{"name":"ThreefoldBot","flair":"activity.chess","patron":false,"patronColor":0,"id":"threefoldbot","rating":1500,"provisional":false,"online":true},"variant":{"key":"standard","name":"Standard","short":"Std"},"rated":false,"speed":"rapid","timeControl":{"type":"unlimited"},"color":"random","finalColor":"white","perf":{"icon":"","name":"Rapid"}},"compat":{"bot":true,"board":true}}`
	// payloadAccount is the answer of /api/account.
	payloadAccount = `{"id":"threefoldbot","username":"ThreefoldBot","perfs":{},"createdAt":1700000000000,"seenAt":1700000600000,"url":"https://lichess.org/@/ThreefoldBot","count":{"all":0,"rated":0,"ai":0,"draw":0,"drawH":0,"loss":0,"lossH":0,"win":0,"winH":0,"bookmark":0,"playing":0,"import":0,"me":0},"followable":true,"following":false,"blocking":false}`
	// payloadSpectatorDesc is the first line of a spectator stream: the
	// game's description.
	payloadSpectatorDesc = `{"id":"tfSpec01","variant":{"key":"standard","name":"Standard","short":"Std"},"speed":"blitz","perf":"blitz","rated":false,"initialFen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","player":"white","turns":0,"startedAtTurn":0,"source":"friend","status":{"id":20,"name":"started"},"createdAt":1700000000000,"lastMove":"","players":{"white":{"user":{"name":"White","title":"IM","id":"white"},"rating":2000},"black":{"user":{"name":"Black","id":"black"},"rating":2000}}}`
	// payloadGameSummary is a line of the games-by-users stream.
	payloadGameSummary = `{"id":"tfSumm01","rated":false,"variant":"standard","speed":"bullet","perf":"bullet","createdAt":1700000000000,"status":20,"statusName":"started","clock":{"initial":60,"increment":0,"totalTime":60},"players":{"white":{"userId":"white","rating":2000},"black":{"userId":"black","rating":2000}}}`
	// payloadTVFeatured is a "featured" line of a TV feed.
	payloadTVFeatured = `{"t":"featured","d":{"id":"tfTV0001","orientation":"white","players":[{"color":"white","user":{"name":"Alice","id":"alice"},"rating":2500,"seconds":60},{"color":"black","user":{"name":"Bob","flair":"activity.chess","id":"bob"},"rating":2450,"seconds":60}],"fen":"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"}}`
)
