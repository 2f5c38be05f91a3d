'use strict';
// threefold dashboard: shared code (token, live feed, board drawing, alerts).

const TF = (() => {
  // The page's language and its messages (the server puts them in the
  // page): T says a message with its arguments, picking the plural form
  // and writing numbers (%[n]d) as the language does; %[n]s is put as it is.
  const LANG = document.documentElement.lang || 'en';
  let MSG = {};
  try { MSG = JSON.parse(document.getElementById('tf-messages').textContent); } catch (e) { /* English keys */ }
  const plurals = new Intl.PluralRules(LANG);
  const numbers = new Intl.NumberFormat(LANG);
  function T(key, ...args) {
    let m = MSG[key];
    if (m == null) return key;
    if (typeof m !== 'string') {
      const n = args[m.arg - 1];
      m = m.forms['=' + n] || m.forms[plurals.select(n)] || m.forms.other;
    }
    return m.replace(/%\[(\d+)\]([sd])/g, (_, i, verb) => {
      const a = args[i - 1];
      return verb === 'd' ? numbers.format(a) : String(a == null ? '' : a);
    });
  }
  // rephrase says a text the feed keeps in English (a withdrawal's reason,
  // a source's name, a site's result: messages whose key starts with
  // prefix) in the page's language with the same values, as the server's
  // i18n Rephrase does; a text no message fits stays as it is.
  const rephrased = {};
  // inner, when given, is the prefix of the messages that may say the
  // last value (an error inside the text).
  function rephrase(s, prefix, inner) {
    if (!s || LANG === 'en') return s;
    for (const k of Object.keys(MSG)) {
      if (!k.startsWith('en:' + prefix)) continue;
      let re = rephrased[k];
      if (!re) {
        const order = [];
        const src = MSG[k].split(/%\[(\d+)\]s/).map((part, i) => {
          if (i % 2) { order.push(+part); return '(.+?)'; }
          return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        }).join('');
        re = rephrased[k] = { rx: new RegExp('^' + src + '$'), order };
      }
      const m = re.rx.exec(s);
      if (!m) continue;
      const args = [];
      re.order.forEach((n, i) => { args[n - 1] = m[i + 1]; });
      if (inner && re.order.length) {
        const last = re.order[re.order.length - 1] - 1;
        args[last] = rephrase(args[last], inner);
      }
      return T(k.slice(3), ...args);
    }
    return s;
  }
  function sourceName(s) { return rephrase(s, 'source.'); }

  // side names the side to move: as the feed has it ("white") in English.
  function side(c) { return LANG === 'en' || !MSG['color.' + c] ? c : T('color.' + c); }
  // ltr isolates notation (SAN, move numbers, lists of plies) so that it
  // reads left to right inside right-to-left text.
  function ltr(s) { return '<bdi dir="ltr">' + esc(s) + '</bdi>'; }
  function timeText(t) { return t.toLocaleTimeString(LANG); }

  // The language picker: the choice is kept in a cookie the server reads,
  // over the browser's Accept-Language.
  const picker = document.getElementById('lang');
  if (picker) {
    picker.value = LANG;
    picker.addEventListener('change', () => {
      document.cookie = 'threefold_lang=' + encodeURIComponent(picker.value) + '; path=/; max-age=31536000; samesite=strict';
      location.reload();
    });
  }
  const params = new URLSearchParams(location.search);
  let token = params.get('token') || '';
  try {
    if (token) sessionStorage.setItem('threefold-token', token);
    else token = sessionStorage.getItem('threefold-token') || '';
  } catch (e) { /* storage disabled: keep the URL's token only */ }

  // withToken adds the access token (if any) to a same-site URL.
  function withToken(path) {
    if (!token) return path;
    return path + (path.includes('?') ? '&' : '?') + 'token=' + encodeURIComponent(token);
  }

  // connect opens the live feed and keeps it open: on a drop it reconnects
  // with a growing pause (1 s .. 15 s); every (re)connection starts with a
  // "hello" message holding the whole state.
  function connect(query, onMessage, onStatus) {
    let delay = 1000;
    let ws = null;
    const open = () => {
      const proto = location.protocol === 'https:' ? 'wss://' : 'ws://';
      ws = new WebSocket(proto + location.host + withToken('/ws' + query));
      onStatus('connecting');
      ws.onopen = () => { delay = 1000; onStatus('live'); };
      ws.onmessage = (ev) => {
        let m;
        try { m = JSON.parse(ev.data); } catch (e) { return; }
        onMessage(m);
      };
      ws.onclose = () => {
        onStatus('offline');
        setTimeout(open, delay);
        delay = Math.min(delay * 2, 15000);
      };
    };
    open();
  }

  function setConn(state) {
    const el = document.getElementById('conn');
    if (!el) return;
    el.className = 'conn ' + state;
    el.querySelector('.label').textContent =
      state === 'live' ? T('web.live') : state === 'connecting' ? T('web.connecting') : T('web.reconnecting');
    document.body.dataset.conn = state;
  }

  const GLYPH = { k: '\u265A', q: '\u265B', r: '\u265C', b: '\u265D', n: '\u265E', p: '\u265F' };
  const FILES = 'abcdefgh';

  function esc(s) {
    return String(s == null ? '' : s).replace(/[&<>"']/g,
      (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
  }

  // board draws a position as SVG. opts: last (UCI of the last move, to
  // highlight), flip (black at the bottom), coords (draw a..h, 1..8).
  function board(fen, opts) {
    opts = opts || {};
    const rows = (fen || '8/8/8/8/8/8/8/8').split(' ')[0].split('/');
    const hl = new Set();
    if (opts.last && opts.last.length >= 4) { hl.add(opts.last.slice(0, 2)); hl.add(opts.last.slice(2, 4)); }
    let s = '<svg class="board" viewBox="0 0 8 8" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="chess board">';
    for (let r = 0; r < 8; r++) {
      for (let f = 0; f < 8; f++) {
        const x = opts.flip ? 7 - f : f, y = opts.flip ? 7 - r : r;
        const sq = FILES[f] + (8 - r);
        const dark = (r + f) % 2 === 1;
        s += '<rect x="' + x + '" y="' + y + '" width="1" height="1" class="' + (dark ? 'sq-d' : 'sq-l') + '"/>';
        if (hl.has(sq)) s += '<rect x="' + x + '" y="' + y + '" width="1" height="1" class="sq-hl"/>';
      }
    }
    if (opts.coords !== false) {
      for (let i = 0; i < 8; i++) {
        const f = opts.flip ? 7 - i : i, r = opts.flip ? 7 - i : i;
        s += '<text class="coord ' + (i % 2 ? 'on-l' : 'on-d') + '" x="' + (i + 0.96) + '" y="7.95" text-anchor="end">' + FILES[f] + '</text>';
        s += '<text class="coord ' + (i % 2 ? 'on-l' : 'on-d') + '" x="0.04" y="' + (7 - i + 0.2) + '">' + (r + 1) + '</text>';
      }
    }
    rows.forEach((row, r) => {
      let f = 0;
      for (const ch of row) {
        if (ch >= '1' && ch <= '8') { f += ch.charCodeAt(0) - 48; continue; }
        const g = GLYPH[ch.toLowerCase()];
        if (g && f < 8 && r < 8) {
          const white = ch === ch.toUpperCase();
          const x = (opts.flip ? 7 - f : f) + 0.5, y = (opts.flip ? 7 - r : r) + 0.56;
          s += '<text class="pc ' + (white ? 'pw' : 'pb') + '" x="' + x + '" y="' + y + '">' + g + '\uFE0E</text>';
        }
        f++;
      }
    });
    return s + '</svg>';
  }

  // moveNo says which move a ply is: its number and whether White made it,
  // counting from the start position's side to move and move number.
  function moveNo(ply, startFen) {
    const parts = (startFen || '').split(' ');
    const blackFirst = parts[1] === 'b';
    const n0 = parseInt(parts[5], 10) || 1;
    const idx = ply - 1 + (blackFirst ? 1 : 0);
    return { n: n0 + Math.floor(idx / 2), white: idx % 2 === 0 };
  }

  function moveLabel(ply, san, startFen) {
    if (!ply) return T('web.start');
    const m = moveNo(ply, startFen);
    return m.n + (m.white ? '. ' : '… ') + san;
  }

  function players(g) {
    const w = g.game.white || T('color.white'), b = g.game.black || T('color.black');
    return (g.game.board ? '<span class="bno">' + esc(g.game.board) + '.</span> ' : '') + '<bdi>' + esc(w) + '</bdi> <span class="vs">–</span> <bdi>' + esc(b) + '</bdi>';
  }

  // clockText writes seconds left as a clock shows them: 1:29:05, 4:07.
  function clockText(sec) {
    const t = Math.round(sec), h = Math.floor(t / 3600), m = Math.floor(t % 3600 / 60), s = t % 60;
    const two = (n) => (n < 10 ? '0' : '') + n;
    return h ? h + ':' + two(m) + ':' + two(s) : m + ':' + two(s);
  }

  const KIND = {};
  for (const k of ['threefold', 'claim_by_move', 'fivefold', 'fifty_moves', 'seventy_five_moves', 'withdrawn']) KIND[k] = T('web.kind.' + k);
  const ARTICLE = { threefold: '9.2.2', claim_by_move: '9.2.1', fivefold: '9.6.1', fifty_moves: '9.3', seventy_five_moves: '9.6.2' };

  function ordinal(n) { return T('web.ordinal', n); }

  // claimText says what an alert means, as HTML (its SAN isolated).
  function claimText(a) {
    switch (a.kind) {
      case 'threefold': return esc(T('web.claim.threefold', ordinal(a.count), side(a.claimant)));
      case 'claim_by_move': return T('web.claim.claim_by_move', esc(side(a.claimant)), ltr(a.move_san || a.move), esc(ordinal(a.count)));
      case 'fivefold': return esc(T('web.claim.fivefold'));
      case 'fifty_moves': return esc(T('web.claim.fifty_moves', side(a.claimant)));
      case 'seventy_five_moves': return esc(T('web.claim.seventy_five_moves'));
      case 'withdrawn': return esc(T('web.claim.withdrawn', (KIND[a.withdrawn_kind] || a.withdrawn_kind || '').toLowerCase()) + (a.reason ? ': ' + rephrase(a.reason, 'reason.') : ''));
    }
    return '';
  }

  // markWithdrawn strikes out, in the list el, the alert a withdrawal names.
  function markWithdrawn(el, a) {
    if (a.kind !== 'withdrawn' || !a.withdraws) return;
    for (const li of el.querySelectorAll('li.alert')) {
      if (li.dataset.id === a.withdraws) li.classList.add('withdrawn');
    }
  }

  // occText lists the occurrences of an alert, as HTML: each ply with its
  // move and clocks, isolated left to right.
  function occText(a) {
    const plies = a.occurrences || [];
    if (!plies.length) return '';
    const san = a.occurrence_san || [], clocks = a.occurrence_clocks || [];
    return esc(T('web.plies', '\u0000')).replace('\u0000', plies.map((p, i) => ltr(p + (san[i] ? ' (' + san[i] + ')' : '') +
      (clocks[i] ? ' [' + clockText(clocks[i].white_s) + ' / ' + clockText(clocks[i].black_s) + ']' : ''))).join(esc(T('list.sep'))));
  }

  // alertItem renders one alert of the feed.
  function alertItem(a) {
    const li = document.createElement('li');
    li.className = 'alert k-' + a.kind;
    li.dataset.id = a.id;
    const t = a.observed_at ? new Date(a.observed_at) : null;
    const when = t && !isNaN(t) && t.getFullYear() > 1970 ? timeText(t) : '';
    const key = (a.game.site || '') + '/' + (a.game.id || '');
    li.innerHTML =
      '<div class="a-head"><span class="a-kind">' + esc(KIND[a.kind] || a.kind) + '</span>' +
      (ARTICLE[a.kind] ? '<span class="a-art">FIDE ' + esc(ARTICLE[a.kind]) + '</span>' : '') + '<span class="a-time">' + esc(when) + '</span></div>' +
      '<div class="a-claim">' + claimText(a) + '</div>' +
      '<div class="a-game"><a href="' + esc(withToken('game?key=' + encodeURIComponent(key) + '#' + a.ply)) + '">' +
      (a.game.board ? esc(T('web.board_prefix', a.game.board)) : '') + '<bdi>' + esc(a.game.white || '?') + '</bdi> – <bdi>' + esc(a.game.black || '?') + '</bdi></a> · ' +
      esc(T('web.ply', a.ply)) + (a.san ? ' (' + ltr(a.san) + ')' : '') + '</div>' +
      '<div class="a-proof">' + occText(a) + '</div>' +
      (lag(a) ? '<div class="a-lag muted">' + esc(lag(a)) + '</div>' : '') +
      (a.audience === 'arbiters' ? '<div class="a-aud">' + esc(T('web.for_arbiters')) + '</div>' : '');
    return li;
  }

  // lag says how far behind the board a source was (an alert's or a game
  // view's delay_plies and delay_s), "" when it is live.
  function lag(x) {
    const parts = [];
    if (x.delay_plies > 0) parts.push(T('web.behind', x.delay_plies));
    if (x.delay_s > 0) parts.push(T('web.delay', Math.round(x.delay_s)));
    return parts.join(T('list.sep'));
  }

  function countClass(n) { return n >= 5 ? 'c5' : n >= 3 ? 'c3' : n === 2 ? 'c2' : 'c1'; }

  // claims describes the claims available in a game view.
  function claims(g) {
    if (g.fivefold) return '<span class="claim c5">' + esc(T('web.drawn_fifth')) + '</span>';
    const out = [];
    if (g.threefold) out.push('<span class="claim c3">' + esc(T('web.may_claim_now', side(g.turn))) + '</span>');
    (g.claim_moves || []).forEach((c) => out.push('<span class="claim c2">' + T('web.may_claim_with', esc(side(g.turn)), ltr(c.san)) + '</span>'));
    if (!out.length) return '<span class="claim none">' + esc(T('web.no_claim')) + '</span>';
    return out.join(' ');
  }

  return { withToken, connect, setConn, board, esc, moveLabel, moveNo, players, alertItem, markWithdrawn, countClass, claims, ordinal, lag, KIND,
    T, ltr, side, timeText, LANG, rephrase, sourceName };
})();
