# bench/lichess-shape.awk: rewrites PGN games as the Lichess database writes
# them, for bench/scan.sh: the tags, a blank line, the main line on one line
# with a clock comment after every move and every black move after it
# numbered "12...", the result. The input's comments, variations and NAGs are
# dropped; the moves and so the plies are the same.
function flush(   out, i, n, t, c, depth, incomment, s, tok, ply, clk, num, clean) {
  s = movetext; clean = ""; depth = 0; incomment = 0
  n = length(s)
  for (i = 1; i <= n; i++) {
    c = substr(s, i, 1)
    if (incomment) { if (c == "}") incomment = 0; continue }
    if (c == "{") { incomment = 1; clean = clean " "; continue }
    if (c == "(") { depth++; continue }
    if (c == ")") { if (depth > 0) depth--; continue }
    if (depth == 0) clean = clean c
  }
  n = split(clean, tok, /[ \t]+/)
  out = ""; ply = 0; clk = 10800
  for (i = 1; i <= n; i++) {
    t = tok[i]
    if (t == "") continue
    sub(/^[0-9]+\.+/, "", t)
    if (t == "" || t ~ /^\$/) continue
    if (t == "1-0" || t == "0-1" || t == "1/2-1/2" || t == "*") { out = out t; break }
    num = int(ply / 2) + 1
    out = out num (ply % 2 == 0 ? ". " : "... ") t sprintf(" { [%%clk %d:%02d:%02d] } ", int(clk / 3600), int(clk % 3600 / 60), clk % 60)
    ply++; if (clk > 7) clk -= 3 + ply % 5
  }
  print ""; print out
  print ""
  movetext = ""
}
/^\[/ { if (movetext != "") flush(); print; next }
/^[ \t]*$/ { next }
{ movetext = movetext " " $0 }
END { if (movetext != "") flush() }
