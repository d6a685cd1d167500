; minisearch-z80.asm - a chess search small enough to read in one sitting. Kempelen's tests
; and lessons open it as they open the historical programs (adaptors/minisearch-z80.toml):
; its variables named, its search read as a tree, the tree set beside the same search written
; in Rust. It is written to be read, not to play well.
;
; It runs on Kempelen's own machine (port $00: console status, bit 0 a key waits; port $01:
; the key, or the character printed) and takes one-letter commands:
;
;   N                   a new game: the start position, White to move
;   S<board><side><d>   set up a position: the 64 squares a1, b1 ... h8, two characters each,
;                       ".." for an empty square, else colour and piece ("WP", "BK"); then W or
;                       B, the side to move; then the depth, 1 to 4
;   D<d>                the depth, 1 to 4
;   M<from><to>         a move (e2e4): the piece goes, whatever stands there is taken
;   G                   search, play and print the move: "move e2e4 value 130 nodes 57"
;
; The search: negamax with alpha-beta to a fixed depth, the moves in the order they are
; generated, the material count at the end of the look-ahead. A value is a byte with 128 as
; "even" (excess 128), for the side to move; its negation is NEG (256 minus it). 28 is
; "mated": a side with no legal move counts as mated (the program knows no stalemate, no
; castling, no capture en passant; a pawn on the last rank becomes a queen).
;
; The board is 0x88: square = 16 * rank + file, a1 = $00, h8 = $77, so that one AND $88 says
; whether a step left the board. A piece is its kind (1 pawn, 2 knight, 3 bishop, 4 rook,
; 5 queen, 6 king) plus 8 for Black.

PAWN        equ 1
KNIGHT      equ 2
BISHOP      equ 3
ROOK        equ 4
QUEEN       equ 5
KING        equ 6
BLACK       equ 8               ; the colour bit of a piece, and SIDE's value for Black
EVEN        equ 128             ; the value of "nothing changed"
MATED       equ 28              ; the value of a side without a legal move
MAXDEPTH    equ 4
CON_STATUS  equ $00
CON_DATA    equ $01

; ---------------------------------------------------------------------------------------
; RAM (Kempelen's Z80 machine: ROM $0000-$3FFF, RAM from $4000). Per-ply tables are indexed
; by PLY: the root is ply 0.
; ---------------------------------------------------------------------------------------
BOARD       equ $8000           ; 128 bytes: the 0x88 board (the right half unused)
SIDE        equ $8080           ; the side to move: 0 White, 8 Black
DEPTH       equ $8081           ; the look-ahead in plies
PLY         equ $8082           ; the ply being searched
VALUE       equ $8083           ; what SEARCH returns: the node's value for its side to move
NODES       equ $8084           ; word: nodes searched (entries to SEARCH)
CUTS        equ $808A           ; word: cut-offs
BESTMV      equ $8086           ; word: the root's best move (its entry in the move list)
MLNEXT      equ $8088           ; word: where the next generated move goes
ALPHA       equ $8090           ; per ply: the best value the side to move is sure of
BETA        equ $8098           ; per ply: the value above which the opponent avoids the node
BESTV       equ $80A0           ; per ply: the best value found at the node so far
MLSTART     equ $80B0           ; per ply, words: the first move of the node's list
MLCUR       equ $80C0           ; per ply, words: the move being searched
MLEND       equ $80D0           ; per ply, words: after the last move
TMPMOVE     equ $80E0           ; 4 bytes: a typed move, as an entry
MOVES       equ $8100           ; the move lists: 4 bytes a move (from, to, piece, captured)

    org $0000
start:
    ld sp,$0000
    call newgame
    ld a,2
    ld (DEPTH),a
; ---------------------------------------------------------------------------------------
; main: reads a command and does it, for ever.
; ---------------------------------------------------------------------------------------
main:
    call getc
    cp 'N'
    jr nz,m_set
    call newgame
    jr main
m_set:
    cp 'S'
    jr nz,m_depth
    call setup
    jr main
m_depth:
    cp 'D'
    jr nz,m_move
    call getdepth
    jr main
m_move:
    cp 'M'
    jr nz,m_go
    call usermove
    jr main
m_go:
    cp 'G'
    jr nz,main                  ; anything else (a line end) is skipped
    call go
    jr main

; getc: waits for a key. out: A. keeps the others
getc:
    in a,(CON_STATUS)           ; bit 0: a key waits
    and 1
    jr z,getc
    in a,(CON_DATA)
    ret

; putc: prints A. keeps all
putc:
    out (CON_DATA),a
    ret

; ---------------------------------------------------------------------------------------
; newgame: the start position, White to move. clobbers A, BC, DE, HL
; ---------------------------------------------------------------------------------------
newgame:
    ld hl,BOARD                 ; every square empty
    ld b,128
    xor a
ng_clear:
    ld (hl),a
    inc hl
    djnz ng_clear
    ld hl,BACKRANK              ; White's pieces on rank 1, Black's on rank 8
    ld de,BOARD
    ld b,8
ng_pieces:
    ld a,(hl)
    ld (de),a
    ld a,e
    or $70                      ; the same file on rank 8
    ld e,a
    ld a,(hl)
    or BLACK
    ld (de),a
    ld a,e
    sub $60                     ; back to rank 2: a white pawn
    ld e,a
    ld a,PAWN
    ld (de),a
    ld a,e
    add a,$50                   ; rank 7: a black pawn
    ld e,a
    ld a,PAWN+BLACK
    ld (de),a
    ld a,e
    and 7                       ; the next file of rank 1
    inc a
    ld e,a
    inc hl
    djnz ng_pieces
    xor a
    ld (SIDE),a
    ret
BACKRANK:
    db ROOK,KNIGHT,BISHOP,QUEEN,KING,BISHOP,KNIGHT,ROOK

; ---------------------------------------------------------------------------------------
; setup: reads a position (the board, the side to move, the depth). clobbers all
; ---------------------------------------------------------------------------------------
setup:
    ld c,0                      ; the square, a1 first
su_square:
    call getc                   ; colour (W, B) or '.'
    ld b,a
    call getc                   ; piece letter or '.'
    ld d,0                      ; D: the piece (0: empty)
    ld hl,LETTERS
su_letter:
    inc d
    cp (hl)
    jr z,su_found
    inc hl
    ld e,a
    ld a,d
    cp 6
    ld a,e
    jr c,su_letter
    ld d,0                      ; not one of the six letters: an empty square
su_found:
    ld a,b
    cp 'B'
    jr nz,su_put
    ld a,d
    or a
    jr z,su_put
    set 3,d                     ; a black piece
su_put:
    ld h,BOARD/256
    ld l,c
    ld (hl),d
    ld a,c                      ; the next square: files 0-7, then the next rank
    inc a
    bit 3,a
    jr z,su_next
    add a,8
su_next:
    ld c,a
    cp $80
    jr c,su_square
    call getc                   ; the side to move: W or B
    cp 'B'
    ld a,0
    jr nz,su_side
    ld a,BLACK
su_side:
    ld (SIDE),a
    ; the depth follows
; getdepth: reads the depth (a digit), 1 to MAXDEPTH. clobbers A
getdepth:
    call getc
    sub '0'
    jr z,gd_one
    cp MAXDEPTH+1
    jr c,gd_put
    ld a,MAXDEPTH
    jr gd_put
gd_one:
    inc a
gd_put:
    ld (DEPTH),a
    ret
LETTERS:
    db "PNBRQK"

; ---------------------------------------------------------------------------------------
; usermove: reads a move (e2e4) and makes it. clobbers all
; ---------------------------------------------------------------------------------------
usermove:
    call sqin
    ld c,a
    call sqin
    ld d,a
    ld hl,TMPMOVE               ; the move as an entry: from, to, piece, captured
    ld (hl),c
    inc hl
    ld (hl),d
    inc hl
    ld b,BOARD/256
    ld a,(bc)
    ld (hl),a
    inc hl
    ld e,d
    ld d,BOARD/256
    ld a,(de)
    ld (hl),a
    ld hl,TMPMOVE
    jp make

; sqin: reads a square (e2). out: A, the 0x88 square. clobbers E
sqin:
    call getc
    sub 'a'
    and 7
    ld e,a
    call getc
    sub '1'
    and 7
    rlca
    rlca
    rlca
    rlca
    or e
    ret

; ---------------------------------------------------------------------------------------
; make: makes the move of the entry at HL (from, to, piece, captured) and gives the move to
; the other side; a pawn that reaches the last rank becomes a queen.
; unmake: takes it back. keep: HL. clobber: A, BC, DE
; ---------------------------------------------------------------------------------------
make:
    ld e,(hl)                   ; E: from
    inc hl
    ld c,(hl)                   ; C: to
    inc hl
    ld b,(hl)                   ; B: the piece
    dec hl
    dec hl
    ld a,b
    and 7
    cp PAWN
    jr nz,mk_put
    ld a,c
    and $70
    jr z,mk_queen               ; rank 1 (a black pawn) or rank 8 (a white one)
    cp $70
    jr nz,mk_put
mk_queen:
    ld a,b
    and BLACK
    or QUEEN
    ld b,a
mk_put:
    ld d,BOARD/256
    xor a
    ld (de),a                   ; the square it leaves is empty
    ld e,c
    ld a,b
    ld (de),a                   ; the piece on its target
    jr turn

unmake:
    ld e,(hl)                   ; from
    inc hl
    ld c,(hl)                   ; to
    inc hl
    ld b,(hl)                   ; the piece
    inc hl
    ld a,(hl)                   ; what it took
    dec hl
    dec hl
    dec hl
    ld d,BOARD/256
    push af
    ld a,b
    ld (de),a                   ; back on its square
    ld e,c
    pop af
    ld (de),a                   ; the captured piece (or nothing) back
turn:
    ld a,(SIDE)
    xor BLACK
    ld (SIDE),a
    ret

; ---------------------------------------------------------------------------------------
; genmoves: the moves of the side to move, from a1 to h8, each piece's in the order of its
; table, into the list at MLNEXT; MLSTART, MLCUR and MLEND of this ply name the list.
; Legal or not: the search tries each and drops those that leave the king attacked.
; clobbers all
; ---------------------------------------------------------------------------------------
genmoves:
    ld hl,MLSTART
    call plyword
    ld de,(MLNEXT)
    ld (hl),e
    inc hl
    ld (hl),d
    ld hl,MLCUR
    call plyword
    ld de,(MLNEXT)
    ld (hl),e
    inc hl
    ld (hl),d
    ld c,0                      ; C: the square, a1 first
gm_square:
    ld h,BOARD/256
    ld l,c
    ld a,(hl)
    or a
    jr z,gm_next                ; empty
    ld b,a                      ; B: the piece
    and BLACK
    ld hl,SIDE
    cp (hl)
    jr nz,gm_next               ; the opponent's
    ld a,b
    and 7
    cp PAWN
    jr nz,gm_knight
    call gen_pawn
    jr gm_next
gm_knight:
    cp KNIGHT
    jr nz,gm_bishop
    ld hl,KNIGHT_STEPS
    call gen_steps
    jr gm_next
gm_bishop:
    cp BISHOP
    jr nz,gm_rook
    ld hl,BISHOP_LINES
    call gen_lines
    jr gm_next
gm_rook:
    cp ROOK
    jr nz,gm_queen
    ld hl,ROOK_LINES
    call gen_lines
    jr gm_next
gm_queen:
    cp QUEEN
    jr nz,gm_king
    ld hl,QUEEN_LINES
    call gen_lines
    jr gm_next
gm_king:
    ld hl,KING_STEPS
    call gen_steps
gm_next:
    ld a,c                      ; the next square: files 0-7, then the next rank
    inc a
    bit 3,a
    jr z,gm_on
    add a,8
gm_on:
    ld c,a
    cp $80
    jr c,gm_square
    ld hl,MLEND
    call plyword
    ld de,(MLNEXT)
    ld (hl),e
    inc hl
    ld (hl),d
    ret

; The steps of a knight and a king, the lines of a bishop, a rook and a queen (0 ends).
KNIGHT_STEPS:
    db 33,31,18,14,-14,-18,-31,-33,0
KING_STEPS:
    db 17,16,15,1,-1,-15,-16,-17,0
BISHOP_LINES:
    db 17,15,-15,-17,0
ROOK_LINES:
    db 16,1,-1,-16,0
QUEEN_LINES:
    db 16,1,-1,-16,17,15,-15,-17,0

; gen_steps: the moves of the piece B on C by the steps at HL. clobbers A, D, HL
gen_steps:
    ld a,(hl)
    or a
    ret z
    add a,c
    ld d,a                      ; D: the target
    and $88
    jr nz,gs_next               ; off the board
    call look
    cp 1
    call nz,addmove             ; empty or the opponent's: a move
gs_next:
    inc hl
    jr gen_steps

; gen_lines: the moves of the piece B on C along the lines at HL: each line up to the edge or
; the first piece, which is taken if it is the opponent's. clobbers A, DE, HL
gen_lines:
    ld a,(hl)
    or a
    ret z
    ld e,a                      ; E: the line's step
    ld d,c
gl_step:
    ld a,d
    add a,e
    ld d,a
    and $88
    jr nz,gl_line               ; off the board: the line ends
    call look
    cp 1
    jr z,gl_line                ; its own piece: the line ends
    push af
    call addmove
    pop af
    or a
    jr z,gl_step                ; empty: on along the line
gl_line:
    inc hl
    jr gen_lines

; gen_pawn: the moves of the pawn B on C: one step ahead, two from its first rank, the two
; captures. clobbers A, DE, L
gen_pawn:
    ld e,16                     ; E: ahead, for White
    ld a,(SIDE)
    or a
    jr z,gp_ahead
    ld e,-16
gp_ahead:
    ld a,c
    add a,e
    ld d,a
    call look
    or a
    jr nz,gp_left               ; blocked
    call addmove
    ld a,c                      ; on its first rank: two steps
    and $70
    ld l,a
    ld a,(SIDE)
    or a
    ld a,$10
    jr z,gp_home
    ld a,$60
gp_home:
    cp l
    jr nz,gp_left
    ld a,d
    add a,e
    ld d,a
    call look
    or a
    call z,addmove
gp_left:
    ld a,c                      ; the capture towards the a-file
    add a,e
    dec a
    ld d,a
    and $88
    jr nz,gp_right
    call look
    cp 2
    call z,addmove
gp_right:
    ld a,c                      ; the capture towards the h-file
    add a,e
    inc a
    ld d,a
    and $88
    ret nz
    call look
    cp 2
    call z,addmove
    ret

; look: what stands on square D. out: A = 0 empty, 1 a piece of the side to move, 2 the
; opponent's. keeps BC, DE, HL
look:
    push hl
    ld h,BOARD/256
    ld l,d
    ld a,(hl)
    or a
    jr z,lk_done
    and BLACK
    ld hl,SIDE
    cp (hl)
    ld a,1
    jr z,lk_done
    inc a
lk_done:
    pop hl
    ret

; addmove: the move of the piece B from C to D, taking what stands on D, into the list at
; MLNEXT. keeps BC, DE, HL
addmove:
    push hl
    ld h,BOARD/256
    ld l,d
    ld a,(hl)                   ; what it takes
    ld hl,(MLNEXT)
    ld (hl),c
    inc hl
    ld (hl),d
    inc hl
    ld (hl),b
    inc hl
    ld (hl),a
    inc hl
    ld (MLNEXT),hl
    pop hl
    ret

; ---------------------------------------------------------------------------------------
; attacked: whether a piece of the side E (0 White, 8 Black) attacks square D. out: carry
; set if it does. keeps DE
; ---------------------------------------------------------------------------------------
attacked:
    push bc
    push hl
    ld a,e                      ; its pawns: White's attack upwards, from below D
    or PAWN
    ld b,a
    ld a,e
    or a
    jr nz,at_black_pawns
    ld a,d
    sub 15
    call at
    jr z,at_yes
    ld a,d
    sub 17
    call at
    jr z,at_yes
    jr at_steps_all
at_black_pawns:
    ld a,d
    add a,15
    call at
    jr z,at_yes
    ld a,d
    add a,17
    call at
    jr z,at_yes
at_steps_all:
    ld a,e                      ; its knights and its king
    or KNIGHT
    ld b,a
    ld hl,KNIGHT_STEPS
    call at_steps
    jr z,at_yes
    ld a,e
    or KING
    ld b,a
    ld hl,KING_STEPS
    call at_steps
    jr z,at_yes
    ld a,e                      ; its rooks or queens on a line, its bishops or queens on a
    or ROOK                     ; diagonal
    ld b,a
    ld hl,ROOK_LINES
    call at_lines
    jr z,at_yes
    ld a,e
    or BISHOP
    ld b,a
    ld hl,BISHOP_LINES
    call at_lines
    jr z,at_yes
    or a                        ; not attacked: carry clear
    pop hl
    pop bc
    ret
at_yes:
    scf
    pop hl
    pop bc
    ret

; at: whether square A is on the board and holds the piece B. out: Z if it does. keeps BC,
; DE, HL
at:
    push hl
    ld l,a
    and $88
    jr nz,at_no                 ; off the board (NZ)
    ld h,BOARD/256
    ld a,(hl)
    cp b
at_no:
    pop hl
    ret

; at_steps: whether the piece B stands one of the steps at HL away from D. out: Z if it
; does. clobbers A, HL
at_steps:
    ld a,(hl)
    or a
    jr z,at_none
    add a,d
    call at
    ret z
    inc hl
    jr at_steps
at_none:
    inc a                       ; NZ
    ret

; at_lines: whether the piece B, or the queen of its colour, is the first piece seen from D
; along one of the lines at HL. out: Z if it is. clobbers A, C, HL
at_lines:
    ld a,(hl)
    or a
    jr z,at_none
    push de
al_step:
    ld a,d
    add a,(hl)
    ld d,a
    and $88
    jr nz,al_line               ; the edge
    push hl
    ld h,BOARD/256
    ld l,d
    ld a,(hl)
    pop hl
    or a
    jr z,al_step                ; empty: on along the line
    cp b
    jr z,al_found
    ld c,a                      ; the queen of the colour of B?
    ld a,b
    and BLACK
    or QUEEN
    cp c
    jr z,al_found
al_line:
    pop de
    inc hl
    jr at_lines
al_found:
    pop de
    xor a                       ; Z
    ret

; illegal: after a move: whether the side that moved left its king attacked. out: carry
; set if it did. clobbers all
illegal:
    ld a,(SIDE)                 ; the side now to move attacks
    ld e,a
    xor BLACK
    or KING
    ld b,a                      ; the king of the side that moved
    ld hl,BOARD
il_find:
    ld a,(hl)
    cp b
    jr z,il_found
    inc l
    bit 7,l
    jr z,il_find
    or a                        ; no king: nothing to attack
    ret
il_found:
    ld d,l
    jp attacked

; ---------------------------------------------------------------------------------------
; eval: the material for the side to move: EVEN plus its pieces' values less the
; opponent's (pawn 1, knight and bishop 3, rook 5, queen 9). out: A. clobbers BC, DE, HL
; ---------------------------------------------------------------------------------------
eval:
    ld hl,BOARD
    ld c,EVEN
ev_square:
    ld a,(hl)
    or a
    jr z,ev_next
    ld b,a
    push hl
    and 7
    ld e,a
    ld d,0
    ld hl,WORTH
    add hl,de
    ld e,(hl)                   ; E: the piece's value
    ld a,b
    and BLACK
    ld hl,SIDE
    cp (hl)
    pop hl
    ld a,c
    jr nz,ev_theirs
    add a,e
    jr ev_put
ev_theirs:
    sub e
ev_put:
    ld c,a
ev_next:
    inc l
    bit 7,l
    jr z,ev_square
    ld a,c
    ret
WORTH:
    db 0,1,3,3,5,9,0,0

; ---------------------------------------------------------------------------------------
; Per-ply tables. plyword: HL = HL + 2 * PLY (clobbers A, DE); plybyte: HL = HL + PLY
; (clobbers A; the byte tables do not cross a page).
; ---------------------------------------------------------------------------------------
plyword:
    ld a,(PLY)
    add a,a
    ld e,a
    ld d,0
    add hl,de
    ret

plybyte:
    ld a,(PLY)
    add a,l
    ld l,a
    ret

; current: HL = the entry of the move being searched at this ply (MLCUR). out: Z when it is
; the end of the list (MLEND). clobbers A, DE
current:
    ld hl,MLEND
    call plyword
    ld e,(hl)
    inc hl
    ld d,(hl)
    push de
    ld hl,MLCUR
    call plyword
    ld a,(hl)
    inc hl
    ld h,(hl)
    ld l,a
    pop de
    ld a,l
    cp e
    ret nz
    ld a,h
    cp d
    ret

; ---------------------------------------------------------------------------------------
; search: the value of the node at PLY for its side to move, into VALUE: at the end of the
; look-ahead its material, else the best of its moves' values, each the negation of the
; value of the position it leads to, searched within ALPHA and BETA of this ply. A move whose
; value reaches BETA refutes the move that led here: the others are not searched (a cut-off).
; Labels the adaptor reads the tree at: sr_made (a move made), sr_back (its value known),
; sr_cut (a cut-off), go_done (the root's value). clobbers all
; ---------------------------------------------------------------------------------------
search:
    ld hl,(NODES)
    inc hl
    ld (NODES),hl
    ld a,(DEPTH)
    ld b,a
    ld a,(PLY)
    cp b
    jr c,sr_inner
    call eval                   ; the end of the look-ahead
    ld (VALUE),a
    ret
sr_inner:
    call genmoves
    ld hl,BESTV
    call plybyte
    ld (hl),MATED               ; no legal move: mated
sr_next:
    call current
    jp z,sr_done                ; every move searched
    call make
    call illegal
    jr nc,sr_made
    call current                ; it leaves the king attacked: not a move
    call unmake
    jr sr_advance
sr_made:
    ld hl,BETA                  ; the child's window: -BETA to -ALPHA
    call plybyte
    ld a,(hl)
    neg
    ld b,a
    ld hl,ALPHA
    call plybyte
    ld a,(hl)
    neg
    ld c,a
    ld hl,PLY
    inc (hl)
    ld hl,ALPHA
    call plybyte
    ld (hl),b
    ld hl,BETA
    call plybyte
    ld (hl),c
    call search
    ld hl,PLY
    dec (hl)
    call current
    call unmake
sr_back:
    ld a,(VALUE)                ; the child's value for its side to move
    neg
    ld b,a                      ; B: the move's value here
    ld hl,BESTV
    call plybyte
    ld a,b
    cp (hl)
    jr c,sr_alpha
    jr z,sr_alpha               ; not better than the best so far
    ld (hl),a
    ld a,(PLY)
    or a
    jr nz,sr_alpha
    call current                ; at the root: the best move
    ld (BESTMV),hl
sr_alpha:
    ld hl,ALPHA
    call plybyte
    ld a,b
    cp (hl)
    jr c,sr_test
    jr z,sr_test
    ld (hl),a                   ; a better value: alpha rises
sr_test:
    ld c,(hl)                   ; alpha
    ld hl,BETA
    call plybyte
    ld a,c
    cp (hl)
    jr nc,sr_cut                ; alpha reached beta
sr_advance:
    ld hl,MLCUR
    call plyword
    ld a,(hl)
    add a,4
    ld (hl),a
    jp nc,sr_next
    inc hl
    inc (hl)
    jp sr_next
sr_cut:                         ; the rest of the list is not searched
    ld hl,(CUTS)
    inc hl
    ld (CUTS),hl
sr_done:
    ld hl,BESTV
    call plybyte
    ld a,(hl)
    ld (VALUE),a
    ld hl,MLSTART               ; the list is given back
    call plyword
    ld a,(hl)
    inc hl
    ld h,(hl)
    ld l,a
    ld (MLNEXT),hl
    ret

; ---------------------------------------------------------------------------------------
; go: searches the position to DEPTH, prints the move, its value and the nodes, and plays
; it (prints "none" without a legal move). clobbers all
; ---------------------------------------------------------------------------------------
go:
    ld hl,0
    ld (NODES),hl
    ld (CUTS),hl
    ld (BESTMV),hl
    xor a
    ld (PLY),a
    ld a,MATED-1                ; the root's window: every value
    ld (ALPHA),a
    ld a,256-MATED+1
    ld (BETA),a
    ld hl,MOVES
    ld (MLNEXT),hl
    call search
go_done:
    ld hl,(BESTMV)
    ld a,h
    or l
    jr z,go_none
    ld de,TEXT_MOVE
    call puts
    ld a,(hl)
    call putsquare
    inc hl
    ld a,(hl)
    call putsquare
    ld de,TEXT_VALUE
    call puts
    ld a,(VALUE)
    ld l,a
    ld h,0
    call putnumber
    ld de,TEXT_NODES
    call puts
    ld hl,(NODES)
    call putnumber
    ld a,10
    call putc
    ld hl,(BESTMV)              ; plays it
    jp make
go_none:
    ld de,TEXT_NONE
    jp puts
TEXT_MOVE:
    db "move ",0
TEXT_VALUE:
    db " value ",0
TEXT_NODES:
    db " nodes ",0
TEXT_NONE:
    db "none",10,0

; puts: prints the text at DE up to its 0. clobbers A, DE
puts:
    ld a,(de)
    or a
    ret z
    call putc
    inc de
    jr puts

; putsquare: prints the square A (e2). clobbers A, B
putsquare:
    ld b,a
    and 7
    add a,'a'
    call putc
    ld a,b
    rrca
    rrca
    rrca
    rrca
    and 7
    add a,'1'
    jp putc

; putnumber: prints HL in decimal. clobbers A, BC, DE, HL
putnumber:
    ld e,0                      ; E: a digit was printed (no leading zeros)
    ld bc,-10000
    call pn_digit
    ld bc,-1000
    call pn_digit
    ld bc,-100
    call pn_digit
    ld bc,-10
    call pn_digit
    ld a,l
    add a,'0'
    jp putc
pn_digit:
    ld a,'0'-1
pn_count:
    inc a
    add hl,bc
    jr c,pn_count
    sbc hl,bc                   ; one subtraction too many: back
    cp '0'
    jr nz,pn_print
    bit 0,e
    ret z
pn_print:
    ld e,1
    jp putc
