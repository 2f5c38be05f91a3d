'use strict';
// The game page: the move list with every occurrence of a repeated position
// marked, and the board at any ply.
(() => {
  const key = new URLSearchParams(location.search).get('key') || '';
  document.getElementById('back').href = TF.withToken('./');
  let g = null;      // the full view
  let cur = -1;      // the ply shown
  let live = true;   // follow the last ply
  const seen = new Set();
  const $ = (id) => document.getElementById(id);

  function show(ply) {
    if (!g) return;
    cur = Math.max(0, Math.min(ply, g.ply));
    live = cur === g.ply && live;
    $('live').classList.toggle('on', live);
    $('board').innerHTML = TF.board(g.fens[cur], { last: g.uci[cur] });
    $('board').dataset.ply = cur;
    const occ = g.occ[cur], grp = g.group[cur];
    let txt = '<b>' + TF.ltr(TF.moveLabel(cur, g.san[cur], g.start_fen)) + '</b> · ' + TF.esc(TF.T('web.ply', cur));
    if (grp >= 0) {
      const plies = g.repeated[grp];
      txt += ' · <span class="mk g' + (grp % 8) + '">' + occ + '</span> ' +
        TF.esc(TF.T('web.occurrence_of', TF.ordinal(occ), plies.length, '\u0000')).replace('\u0000', TF.ltr(plies.join(', ')));
    } else {
      txt += ' · ' + TF.esc(TF.T('web.occurs_once'));
    }
    (g.near_repetitions || []).filter((n) => n.ply === cur).forEach((n) => { txt += ' · ' + nearText(n); });
    $('at').innerHTML = txt;
    if (document.activeElement !== $('claim-ply')) $('claim-ply').value = cur;
    document.querySelectorAll('#moves .mv.cur').forEach((e) => e.classList.remove('cur'));
    const el = document.querySelector('#moves .mv[data-ply="' + cur + '"]');
    if (el) { el.classList.add('cur'); if (!live) el.scrollIntoView({ block: 'nearest' }); }
  }

  // nearText says, as HTML, that the pieces stand at n.ply as at earlier
  // plies but the position is another, and how it differs.
  function nearText(n) {
    const why = (n.differences || []).map((d) => TF.T('web.near.' + d)).join(TF.T('list.sep'));
    return TF.esc(TF.T('web.near', '\u0001', why)).replace('\u0001', TF.ltr(n.same_placement_as.join(', ')));
  }

  // checkClaim asks the dashboard whether a claim at the ply (with the move
  // declared, if any) is correct, and shows the answer.
  async function checkClaim(e) {
    e.preventDefault();
    const out = $('claim-out');
    const q = 'api/claim?game=' + encodeURIComponent(key) + '&ply=' + encodeURIComponent($('claim-ply').value) +
      '&move=' + encodeURIComponent($('claim-move').value.trim());
    try {
      const res = await fetch(TF.withToken(q), { cache: 'no-store' });
      const r = await res.json();
      if (!res.ok) throw new Error(r.error || res.status);
      out.className = 'claim-out ' + (r.valid ? 'valid' : 'invalid');
      out.innerHTML = '<p class="verdict">' + TF.esc(r.verdict) + '</p><p>' + TF.esc(r.reason) + '</p>' +
        (r.notes || []).map((n) => '<p class="muted">' + TF.esc(n) + '</p>').join('');
    } catch (err) {
      out.className = 'claim-out invalid';
      out.textContent = TF.T('web.claim_failed', err.message);
    }
  }

  function renderMoves() {
    let h = '<span class="mv start" data-ply="0">' + TF.esc(TF.T('web.start')) + mark(0) + '</span>';
    for (let p = 1; p <= g.ply; p++) {
      const mn = TF.moveNo(p, g.start_fen);
      if (mn.white) h += '<span class="num">' + mn.n + '.</span>';
      else if (p === 1) h += '<span class="num">' + mn.n + '…</span><span></span>';
      h += '<span class="mv" data-ply="' + p + '">' + TF.esc(g.san[p]) + mark(p) + '</span>';
    }
    $('moves').innerHTML = h;
    const box = $('moves');
    if (live) box.scrollTop = box.scrollHeight;
  }

  function mark(p) {
    const grp = g.group[p];
    if (grp < 0) return '';
    const o = g.occ[p];
    return '<sup class="mk g' + (grp % 8) + (o >= 5 ? ' o5' : o >= 3 ? ' o3' : '') + '" title="' +
      TF.esc(TF.T('web.mark_title', TF.ordinal(o))) + '">' + o + '</sup>';
  }

  function renderInfo() {
    document.title = 'threefold — ' + (g.game.white || TF.T('color.white')) + ' – ' + (g.game.black || TF.T('color.black'));
    $('title').innerHTML = '<bdi>' + TF.esc(TF.sourceName(g.source) || g.game.site) + '</bdi> · <bdi>' + TF.esc(g.game.id) + '</bdi>';
    $('players').innerHTML = TF.players(g) + (/^https?:\/\//i.test(g.game.url || '') ? ' <a class="ext" href="' + TF.esc(g.game.url) + '" rel="noreferrer" target="_blank">' + TF.esc(TF.T('web.open')) + '</a>' : '');
    const cc = TF.countClass(g.count);
    $('now').innerHTML = '<h3>' + TF.esc(TF.T('web.now')) + '</h3><div class="now-row"><span class="count big ' + cc + '" dir="ltr">×' + g.count + '</span>' +
      '<div><div>' + TF.ltr(TF.moveLabel(g.ply, g.last_san, g.start_fen)) + TF.esc(TF.T('list.sep') + TF.T(g.turn === 'black' ? 'web.black_to_move' : 'web.white_to_move')) + '</div>' +
      '<div class="muted">' + TF.esc(TF.T('web.occurred_at', '\u0000')).replace('\u0000', TF.ltr((g.occurrences || []).join(', '))) + '</div></div></div>' +
      '<div class="claims">' + TF.claims(g) + '</div>' +
      (g.status === 'finished' ? '<div class="status st-finished">' + TF.esc(TF.T('web.finished_result', g.result || '')) + '</div>' : '') +
      (g.attention ? '<div class="status st-attention">' + TF.esc(TF.rephrase(g.attention, 'attn.', 'move.')) + '</div>' : '') +
      (TF.lag(g) ? '<div class="muted">' + TF.esc(TF.lag(g)) + '</div>' : '');
    const rep = $('repeated');
    rep.innerHTML = g.repeated.length ? '' : '<li class="empty">' + TF.esc(TF.T('web.no_repeated')) + '</li>';
    g.repeated.forEach((plies, i) => {
      const li = document.createElement('li');
      li.innerHTML = '<span class="mk g' + (i % 8) + '">×' + plies.length + '</span> ' +
        plies.map((p) => '<a href="#' + p + '" data-ply="' + p + '">' + TF.ltr(TF.moveLabel(p, g.san[p], g.start_fen)) + '</a>').join(' · ');
      rep.appendChild(li);
    });
    const near = $('near');
    const nr = g.near_repetitions || [];
    near.innerHTML = nr.length ? '' : '<li class="empty">' + TF.esc(TF.T('web.no_near')) + '</li>';
    nr.forEach((n) => {
      const li = document.createElement('li');
      li.innerHTML = '<a href="#' + n.ply + '" data-ply="' + n.ply + '">' + TF.ltr(TF.moveLabel(n.ply, g.san[n.ply], g.start_fen)) + '</a> ' + nearText(n);
      near.appendChild(li);
    });
  }

  // complete puts the plies the page has before the part of the game a
  // live update sends: its per-ply lists from ply from on, its groups from
  // ply groupFrom on (from 0: the whole game). The hub sends a part only
  // to pages that have the plies before it; null if this one has not.
  function complete(v, from, groupFrom) {
    if (!from) return v;
    if (!g || g.key !== v.key || !g.fens || g.fens.length < from) return null;
    for (const f of ['uci', 'san', 'fens', 'occ']) v[f] = g[f].slice(0, from).concat(v[f] || []);
    v.group = g.group.slice(0, groupFrom).concat(v.group || []);
    v.near_repetitions = (g.near_repetitions || []).filter((n) => n.ply < from).concat(v.near_repetitions || []);
    return v;
  }

  // repeatedOf lists the plies of every repeated position, from the
  // groups (by ply, the position's index among the repeated ones, -1 for
  // one that occurred once): what the hub leaves out of a live update
  // (web.RepeatedOf).
  function repeatedOf(group) {
    const out = [];
    group.forEach((grp, ply) => {
      if (grp < 0) return;
      while (out.length <= grp) out.push([]);
      out[grp].push(ply);
    });
    return out;
  }

  function update(v, from, groupFrom) {
    if (!v || v.key !== key) return;
    v = complete(v, from, groupFrom);
    if (!v || !v.fens) return;
    v.repeated = repeatedOf(v.group || []);
    g = v;
    renderInfo();
    renderMoves();
    if (cur < 0) {
      const h = parseInt(location.hash.slice(1), 10);
      if (!isNaN(h) && h >= 0 && h <= g.ply) { live = h === g.ply; show(h); return; }
    }
    show(live ? g.ply : cur);
  }

  function addAlert(a, fresh) {
    if ((a.game.site + '/' + a.game.id) !== key || seen.has(a.id)) return;
    seen.add(a.id);
    $('no-alerts').hidden = true;
    const li = TF.alertItem(a);
    if (fresh) li.classList.add('fresh');
    li.querySelector('.a-game a').addEventListener('click', (e) => { e.preventDefault(); live = false; show(a.ply); });
    $('alerts').insertBefore(li, $('alerts').firstChild);
    TF.markWithdrawn($('alerts'), a);
  }

  document.addEventListener('click', (e) => {
    const t = e.target.closest('[data-ply]');
    if (!t || !g || t.id === 'board') return;
    e.preventDefault();
    live = false;
    show(parseInt(t.dataset.ply, 10));
  });
  $('claim').addEventListener('submit', checkClaim);
  $('first').onclick = () => { live = false; show(0); };
  $('prev').onclick = () => { live = false; show(cur - 1); };
  $('next').onclick = () => { live = false; show(cur + 1); };
  $('last').onclick = () => { live = false; show(g ? g.ply : 0); };
  $('live').onclick = () => { live = true; show(g ? g.ply : 0); };
  document.addEventListener('keydown', (e) => {
    if (!g) return;
    if (e.key === 'ArrowLeft') { live = false; show(cur - 1); }
    else if (e.key === 'ArrowRight') { live = false; show(cur + 1); }
    else if (e.key === 'Home') { live = false; show(0); }
    else if (e.key === 'End') { live = true; show(g.ply); }
  });

  TF.connect('?game=' + encodeURIComponent(key), (m) => {
    switch (m.type) {
      case 'hello':
        if (m.game) update(m.game);
        else if (!g) $('at').textContent = TF.T('web.waiting');
        (m.alerts || []).forEach((a) => addAlert(a, false));
        break;
      case 'game': update(m.game, m.from || 0, m.group_from || 0); break;
      case 'alert': addAlert(m.alert, true); break;
    }
  }, TF.setConn);
})();
