#!/usr/bin/env python3
# Writes the original-style rule files of this folder (run from games/bench/).
# They are benchmark and digest fixtures, written in the style the original
# system's authors used (see docs/BENCHMARKS.md, "Rule engine").
# Writes the original-style benchmark fixtures of games/bench/ (physical data omitted:
# they are for the rules benchmark and the identical-playouts digest only).
import os

def header(title, notes):
    return "".join(f"// {l}\n" if l else "//\n" for l in [title] + notes) + "\n"

def loc(name, typ):
    return f"name={name}\ntype={typ}\npoint=0,0\n\n"

def elem(name, typ, where, player=None, state=None):
    s = f"name={name}\ntype={typ}\nlocation={where}\n"
    if player is not None: s += f"player={player}\n"
    if state is not None: s += f"state={state}\n"
    return s + "\n"

def types(etypes, ltypes):
    s = "[ELEMENT TYPES]\n"
    for n, k in etypes:
        s += f"name={n}\nstates={k}\n"
        for _ in range(k):
            s += f"image={n}.png\npoint=0,0\n"
        s += "\n"
    s += "[LOCATION TYPES]\n"
    for n, rel in ltypes:
        s += f"name={n}\nimage={n}.png\nshape=circle(20)\npoint=0,0\n" + ("" if rel else "relevant=no\n") + "\n"
    return s

# ---------------------------------------------------------------- tic-tac-toe
def tictactoe():
    s = header("Tic-tac-toe written the way the original system's authors wrote rule files",
        ["(benchmark fixture, not a game for the robot: no camera or arm data).",
         "One rule for both players; the owner of the piece is checked in the condition,",
         "neighbour names are built first and checked with IsValid afterwards, the end",
         "of game scans the whole board for a line, the draw counts placed pieces."])
    s += "[BOARD]\nimage=board.png\n\n"
    s += types([("piece", 2)], [("cell", True), ("supply", False)])
    s += "[LOCATIONS]\n"
    for y in range(1, 4):
        for x in range(1, 4):
            s += loc(f"s({x},{y})", "cell")
    for k in range(1, 11):
        s += loc(f"sup({k})", "supply")
    s += "[PLAYER NAMES]\n1=crosses\n2=noughts\n\n[MOVABLE ELEMENTS]\n"
    for e in range(1, 11):
        p = 1 if e <= 5 else 2
        s += elem(f"p({e})", "piece", f"sup({e})", p, p)
    s += r"""[EXPRESSIONS]
IsValid($VX,$VY)
($VX >= 1) AND ($VX <= 3) AND ($VY >= 1) AND ($VY <= 3)
END

Owns($OX,$OY,$OP)
$OC = CONTENT("s($OX,$OY)")
IF($OC == "", false, OWNER($OC) == $OP)
END

LineFrom($LX,$LY,$LDX,$LDY,$LP)
$L1 = $LX + $LDX
$L2 = $LY + $LDY
$L3 = $L1 + $LDX
$L4 = $L2 + $LDY
IsValid($L3,$L4) AND Owns($LX,$LY,$LP) AND Owns($L1,$L2,$LP) AND Owns($L3,$L4,$LP)
END

HasLine($HP)
FORSOME($HX, 1, 3, FORSOME($HY, 1, 3, LineFrom($HX,$HY,1,0,$HP) OR LineFrom($HX,$HY,0,1,$HP) OR LineFrom($HX,$HY,1,1,$HP) OR LineFrom($HX,$HY,1,-1,$HP)))
END

CountPlaced
$CN = 0
FORALL($CE, 1, 10, IF(LOCTYPE(LOCATION("p($CE)")) == "cell", $CN = $CN + 1, true))
$CN
END

CanPlace($PE,$PP,$PX,$PY)
(OWNER("p($PE)") == $PP) AND IsValid($PX,$PY) AND EMPTY("s($PX,$PY)")
END

[SCORINGS]

[END OF GAME]
situation=HasLine(1)
winner=1

situation=HasLine(2)
winner=2

situation=CountPlaced == 9
winner=0

[GAME RULES]
name=place
element=p($E)
player=$P
from=sup($K)
to=s($X,$Y)
condition=CanPlace($E,$P,$X,$Y)
followup=NEXTPLAYER
"""
    return s

# ---------------------------------------------------------------- connect four
def connect4():
    s = header("Connect four written the way the original system's authors wrote rule files",
        ["(benchmark fixture: no camera or arm data). Discs d(1..42), owner = player;",
         "one rule for both players with the owner checked in the condition; CanGo",
         "builds the name below the target and checks it; the end of game scans every",
         "cell in four directions through helper functions with many parameters, and",
         "the draw check counts discs on the board with nested FORALL."])
    s += "[BOARD]\nimage=board.png\n\n"
    s += types([("disc", 2)], [("hole", True), ("supply", False)])
    s += "[LOCATIONS]\n"
    for r in range(1, 7):
        for c in range(1, 8):
            s += loc(f"b({c},{r})", "hole")
    for k in range(1, 43):
        s += loc(f"sup({k})", "supply")
    s += "[PLAYER NAMES]\n1=red\n2=yellow\n\n[MOVABLE ELEMENTS]\n"
    for e in range(1, 43):
        p = 1 if e <= 21 else 2
        s += elem(f"d({e})", "disc", f"sup({e})", p, p)
    s += r"""[EXPRESSIONS]
IsValid($VX,$VY)
($VX >= 1) AND ($VX <= 7) AND ($VY >= 1) AND ($VY <= 6)
END

CanGo($GE,$GP,$GC,$GR)
$GB = $GR - 1
(OWNER("d($GE)") == $GP) AND IsValid($GC,$GR) AND (($GR == 1) OR (IsValid($GC,$GB) AND NOT EMPTY("b($GC,$GB)")))
END

Disc($DX,$DY,$DP)
$DN = CONTENT("b($DX,$DY)")
IF(IsValid($DX,$DY) AND ($DN != ""), OWNER($DN) == $DP, false)
END

Four($FX,$FY,$FDX,$FDY,$FP)
$F1X = $FX + $FDX
$F1Y = $FY + $FDY
$F2X = $F1X + $FDX
$F2Y = $F1Y + $FDY
$F3X = $F2X + $FDX
$F3Y = $F2Y + $FDY
IsValid($F3X,$F3Y) AND Disc($FX,$FY,$FP) AND Disc($F1X,$F1Y,$FP) AND Disc($F2X,$F2Y,$FP) AND Disc($F3X,$F3Y,$FP)
END

HasFour($HP)
FORSOME($HX, 1, 7, FORSOME($HY, 1, 6, Four($HX,$HY,1,0,$HP) OR Four($HX,$HY,0,1,$HP) OR Four($HX,$HY,1,1,$HP) OR Four($HX,$HY,1,-1,$HP)))
END

Count
$CN = 0
FORALL($CX, 1, 7, FORALL($CY, 1, 6, IF(EMPTY("b($CX,$CY)"), true, $CN = $CN + 1)))
$CN
END

[SCORINGS]

[END OF GAME]
situation=HasFour(1)
winner=1

situation=HasFour(2)
winner=2

situation=Count == 42
winner=0

[GAME RULES]
name=drop
element=d($E)
player=$P
from=sup($K)
to=b($C,$R)
condition=CanGo($E,$P,$C,$R)
followup=NEXTPLAYER
"""
    return s

# ---------------------------------------------------------------- reversi 6x6
def reversi6():
    s = header("Reversi on 6 x 6 written the way the original system's authors wrote rule files",
        ["(benchmark fixture: no camera or arm data). Discs d(1..36) in a pool, state =",
         "colour. Targets are built step by step into a set over the whole board, every",
         "neighbour name is built and then checked with IsValid, flips walk each",
         "direction with helper functions taking many parameters, a player without a",
         "move is skipped, and the end counts discs with nested FORALL."])
    s += "[BOARD]\nimage=board.png\n\n"
    s += types([("disc", 2), ("flag", 2)], [("square", True), ("pool", False), ("flagspot", True)])
    s += "[LOCATIONS]\n"
    for y in range(1, 7):
        for x in range(1, 7):
            s += loc(f"b({x},{y})", "square")
    for k in range(1, 37):
        s += loc(f"pool({k})", "pool")
    s += loc("flagspot", "flagspot")
    s += "[PLAYER NAMES]\n1=black\n2=white\n\n[MOVABLE ELEMENTS]\n"
    start = {(3, 3): 2, (4, 4): 2, (3, 4): 1, (4, 3): 1}
    e = 1
    for (x, y), c in sorted(start.items()):
        s += elem(f"d({e})", "disc", f"b({x},{y})", None, c)
        e += 1
    for k in range(e, 37):
        s += elem(f"d({k})", "disc", f"pool({k})", None, 1)
    s += elem("flag", "flag", "flagspot", None, 1)
    s += r"""[EXPRESSIONS]
IsValid($VX,$VY)
($VX >= 1) AND ($VX <= 6) AND ($VY >= 1) AND ($VY <= 6)
END

Colour($CX,$CY)
IF(IsValid($CX,$CY) AND NOT EMPTY("b($CX,$CY)"), STATE(CONTENT("b($CX,$CY)")), 0)
END

// Length of the run of opponent discs from b($RX,$RY) along ($RDX,$RDY) that
// ends on a disc of colour $RC; 0 when there is none.
Run($RX,$RY,$RDX,$RDY,$RC)
$RN = 0
$RWX = $RX + $RDX
$RWY = $RY + $RDY
FORALL($RI, 1, 5, IF(Colour($RWX,$RWY) == 3 - $RC, ($RN = $RN + 1) AND ($RWX = $RWX + $RDX) AND ($RWY = $RWY + $RDY), false)) OR true
IF(($RN > 0) AND (Colour($RWX,$RWY) == $RC), $RN, 0)
END

CanFlip($AX,$AY,$AC)
(Run($AX,$AY,-1,-1,$AC) > 0) OR (Run($AX,$AY,-1,0,$AC) > 0) OR (Run($AX,$AY,-1,1,$AC) > 0) OR (Run($AX,$AY,0,-1,$AC) > 0) OR (Run($AX,$AY,0,1,$AC) > 0) OR (Run($AX,$AY,1,-1,$AC) > 0) OR (Run($AX,$AY,1,0,$AC) > 0) OR (Run($AX,$AY,1,1,$AC) > 0)
END

Targets($TC)
$RET = {}
FORALL($TX, 1, 6, FORALL($TY, 1, 6, IF(EMPTY("b($TX,$TY)") AND CanFlip($TX,$TY,$TC), $RET = $RET UNION {"b($TX,$TY)"}, true)))
$RET
END

HasMove($MC)
FORSOME($MX, 1, 6, FORSOME($MY, 1, 6, EMPTY("b($MX,$MY)") AND CanFlip($MX,$MY,$MC)))
END

FlipDir($FX,$FY,$FDX,$FDY,$FC)
$FN = Run($FX,$FY,$FDX,$FDY,$FC)
IF($FN > 0, FORALL($FI, 1, $FN, ($FWX = $FX + $FI * $FDX) AND ($FWY = $FY + $FI * $FDY) AND SETSTATE(CONTENT("b($FWX,$FWY)"), $FC)), true)
END

Place($PX,$PY,$PC)
FlipDir($PX,$PY,-1,-1,$PC) AND FlipDir($PX,$PY,-1,0,$PC) AND FlipDir($PX,$PY,-1,1,$PC) AND FlipDir($PX,$PY,0,-1,$PC) AND FlipDir($PX,$PY,0,1,$PC) AND FlipDir($PX,$PY,1,-1,$PC) AND FlipDir($PX,$PY,1,0,$PC) AND FlipDir($PX,$PY,1,1,$PC)
SETSTATE(CONTENT("b($PX,$PY)"), $PC)
NEXTPLAYER
IF(HasMove(PLAYER), true, IF(HasMove(3 - PLAYER), NEXTPLAYER, SETSTATE("flag", 2)))
END

Count($NC)
$NN = 0
FORALL($NX, 1, 6, FORALL($NY, 1, 6, IF(Colour($NX,$NY) == $NC, $NN = $NN + 1, true)))
$NN
END

Winner
$W1 = Count(1)
$W2 = Count(2)
IF($W1 > $W2, 1, IF($W2 > $W1, 2, 0))
END

[SCORINGS]

[END OF GAME]
situation=STATE("flag") == 2
winner=Winner

[GAME RULES]
name=place
element=d($E)
player=$P
from=pool($K)
to=b($X,$Y)
toLocations=Targets($P)
followup=Place($X,$Y,$P)
"""
    return s

# ---------------------------------------------------------------- jumping (checkers-like)
def jumping():
    s = header("A checkers-like jumping game written the way the original system's authors",
        ["wrote rule files (benchmark fixture: no camera or arm data). 6 x 6 board,",
         "men on the dark squares, six each; a man steps diagonally forward or jumps",
         "diagonally forward over an opposing man, which goes to its owner's supply",
         "with FORSOME($I, 12, 1, MOVE(...)). Targets are built step by step as lazy",
         "[target, Captured(...)] pairs; the end of game counts men with nested FORALL.",
         "A player without a man on the board loses; no move at all is a draw."])
    s += "[BOARD]\nimage=board.png\n\n"
    s += types([("man", 2)], [("square", True), ("bin", False)])
    s += "[LOCATIONS]\n"
    for y in range(1, 7):
        for x in range(1, 7):
            s += loc(f"s({x},{y})", "square")
    for p in (1, 2):
        for k in range(1, 13):
            s += loc(f"bin({p},{k})", "bin")
    s += "[PLAYER NAMES]\n1=white\n2=black\n\n[MOVABLE ELEMENTS]\n"
    e = 1
    for y in (1, 2):
        for x in range(1, 7):
            if (x + y) % 2 == 0:
                s += elem(f"m({e})", "man", f"s({x},{y})", 1, 1); e += 1
    for y in (5, 6):
        for x in range(1, 7):
            if (x + y) % 2 == 0:
                s += elem(f"m({e})", "man", f"s({x},{y})", 2, 2); e += 1
    assert e == 13
    s += r"""[EXPRESSIONS]
IsValid($VX,$VY)
($VX >= 1) AND ($VX <= 6) AND ($VY >= 1) AND ($VY <= 6)
END

Forward($DP)
IF($DP == 1, 1, -1)
END

Enemy($EX,$EY,$EP)
$EN = CONTENT("s($EX,$EY)")
IF(IsValid($EX,$EY) AND ($EN != ""), OWNER($EN) == 3 - $EP, false)
END

Free($QX,$QY)
IsValid($QX,$QY) AND EMPTY("s($QX,$QY)")
END

Targets($TX,$TY,$TP)
$RET = {}
$TD = Forward($TP)
$TLX = $TX - 1
$TRX = $TX + 1
$TNY = $TY + $TD
$TJLX = $TX - 2
$TJRX = $TX + 2
$TJY = $TY + $TD + $TD
IF(Free($TLX,$TNY), $RET = $RET UNION {"s($TLX,$TNY)"}, true)
IF(Free($TRX,$TNY), $RET = $RET UNION {"s($TRX,$TNY)"}, true)
IF(Enemy($TLX,$TNY,$TP) AND Free($TJLX,$TJY), $RET = $RET UNION {["s($TJLX,$TJY)", Captured($TLX,$TNY)]}, true)
IF(Enemy($TRX,$TNY,$TP) AND Free($TJRX,$TJY), $RET = $RET UNION {["s($TJRX,$TJY)", Captured($TRX,$TNY)]}, true)
$RET
END

Captured($CX,$CY)
$CE = CONTENT("s($CX,$CY)")
$CO = OWNER($CE)
FORSOME($I, 12, 1, MOVE($CE, "s($CX,$CY)", "bin($CO,$I)"))
NEXTPLAYER
END

Men($MP)
$MN = 0
FORALL($MX, 1, 6, FORALL($MY, 1, 6, IF(Enemy($MX,$MY,3 - $MP), $MN = $MN + 1, true)))
$MN
END

[SCORINGS]

[END OF GAME]
situation=Men(1) == 0
winner=2

situation=Men(2) == 0
winner=1

[GAME RULES]
name=move
element=m($E)
player=$P
from=s($X,$Y)
to=s($A,$B)
toLocations=IF(OWNER("m($E)") == $P, Targets($X,$Y,$P), {})
followup=NEXTPLAYER
"""
    return s

# ---------------------------------------------------------------- nim
def nim():
    s = header("Nim (rows 1-3-5-7, misere) written the way the original system's authors wrote",
        ["rule files (benchmark fixture: no camera or arm data). Matches m(1..16) with",
         "their row in the state; a turn takes matches one at a time from one row; the",
         "turn token's state remembers the row of this turn (1 = none yet). Rows are",
         "found by FORALL over match indices with STATE of interpolated names."])
    s += "[BOARD]\nimage=board.png\n\n"
    s += types([("match", 4), ("token", 5)], [("place", True), ("discard", False), ("tokenspot", True)])
    s += "[LOCATIONS]\n"
    rows = [1, 3, 5, 7]
    for r, n in enumerate(rows, 1):
        for k in range(1, n + 1):
            s += loc(f"row({r},{k})", "place")
    for k in range(1, 17):
        s += loc(f"discard({k})", "discard")
    s += loc("spot(1)", "tokenspot") + loc("spot(2)", "tokenspot")
    s += "[PLAYER NAMES]\n1=first\n2=second\n\n[MOVABLE ELEMENTS]\n"
    e = 1
    for r, n in enumerate(rows, 1):
        for k in range(1, n + 1):
            s += elem(f"m({e})", "match", f"row({r},{k})", None, r); e += 1
    s += elem("token", "token", "spot(1)", None, 1)
    s += r"""[EXPRESSIONS]
// Matches of row $LR still on the board.
Left($LR)
$LN = 0
FORALL($LE, 1, 16, IF((STATE("m($LE)") == $LR) AND (LOCTYPE(LOCATION("m($LE)")) == "place"), $LN = $LN + 1, true))
$LN
END

// The highest-numbered remaining match of its row may be taken, from the row of
// this turn if one was chosen.
CanTake($TE,$TR,$TK)
$TT = STATE("token")
(($TT == 1) OR ($TT == $TR + 1)) AND ($TK == Left($TR))
END

Total
$AN = 0
FORALL($AR, 1, 4, ($AN = $AN + Left($AR)) OR true)
$AN
END

// Discards fill up from slot 1: the slot before the target must be taken.
Slot($SD)
$SB = $SD - 1
($SD == 1) OR NOT EMPTY("discard($SB)")
END

Took($OR)
SETSTATE("token", $OR + 1)
END

EndTurn
SETSTATE("token", 1)
NEXTPLAYER
END

[SCORINGS]

[END OF GAME]
// The player who took the last match has not passed the turn yet: that player loses.
situation=Total == 0
winner=3 - PLAYER

[GAME RULES]
name=take
element=m($E)
from=row($R,$K)
to=discard($D)
condition=CanTake($E,$R,$K) AND Slot($D)
followup=Took($R)

name=pass
element=token
from=spot($A)
to=spot($B)
condition=STATE("token") > 1
followup=EndTurn
"""
    return s

for name, f in [("tictactoe-orig", tictactoe), ("connect4-orig", connect4), ("reversi6-orig", reversi6),
                ("jumping-orig", jumping), ("nim-orig", nim)]:
    open(f"{name}.game", "w").write(f())
