; minisearch-6502.asm - the same small chess search as minisearch-z80.asm, routine for
; routine, in 6502 assembly: a program Kempelen's tests and lessons open as they open the
; historical programs (adaptors/minisearch-6502.toml). Read minisearch-z80.asm's header for
; the commands (N, S, D, M, G), the search and the values; the two print the same moves, the
; same values and the same node counts.
;
; It runs on Kempelen's own 6502 machine: the console's status at $BF00 (bit 0: a key waits)
; and its data at $BF01. Code at $1000; the board at $0200 (one page, indexed by X); the
; variables and per-ply tables in page zero, each word table two bytes a ply, so that
; `word(MLCUR + 2 * PLY)` names the move being searched.

PAWN        = 1
KNIGHT      = 2
BISHOP      = 3
ROOK        = 4
QUEEN       = 5
KING        = 6
BLACK       = 8                 ; the colour bit of a piece, and SIDE's value for Black
EVEN        = 128               ; the value of "nothing changed"
MATED       = 28                ; the value of a side without a legal move
MAXDEPTH    = 4
CON_STATUS  = $BF00
CON_DATA    = $BF01

; Page zero: the variables (the Z80 build's names)
SIDE        = $10               ; the side to move: 0 White, 8 Black
DEPTH       = $11               ; the look-ahead in plies
PLY         = $12               ; the ply being searched
VALUE       = $13               ; what SEARCH returns: the node's value for its side to move
NODES       = $14               ; word: nodes searched (entries to SEARCH)
BESTMV      = $16               ; word: the root's best move (its entry in the move list)
MLNEXT      = $18               ; word: where the next generated move goes
EPTR        = $1A               ; word: the entry make, unmake and current work on
TPTR        = $1C               ; word: the step or line table being used
NUM         = $1E               ; word: the number putnumber prints
CUTS        = $81               ; word: cut-offs
ALPHA       = $20               ; per ply: the best value the side to move is sure of
BETA        = $28               ; per ply: the value above which the opponent avoids the node
BESTV       = $30               ; per ply: the best value found at the node so far
MLSTART     = $40               ; per ply, words: the first move of the node's list
MLCUR       = $50               ; per ply, words: the move being searched
MLEND       = $60               ; per ply, words: after the last move
TMPMOVE     = $70               ; 4 bytes: a typed move, as an entry
FROM        = $74               ; the generator's square, piece, target and step
PIECE       = $75
TO          = $76
DIR         = $77
TIDX        = $78               ; the index into the table at TPTR
SQ          = $79               ; attacked: the square, the attacking colour, the piece
ATK         = $7A
WANT        = $7B
MP          = $7C               ; make: the piece that lands
T2          = $7D               ; scratch
T3          = $7E
T4          = $7F
SEEN        = $80               ; putnumber: a digit was printed
BOARD       = $0200             ; 128 bytes: the 0x88 board (the right half unused)
MOVES       = $0300             ; the move lists: 4 bytes a move (from, to, piece, captured)

        .org $1000
start:
        ldx #$FF
        txs
        jsr newgame
        lda #2
        sta DEPTH
; ---------------------------------------------------------------------------------------
; main: reads a command and does it, for ever.
; ---------------------------------------------------------------------------------------
main:
        jsr getc
        cmp #'N'
        bne m_set
        jsr newgame
        jmp main
m_set:
        cmp #'S'
        bne m_depth
        jsr setup
        jmp main
m_depth:
        cmp #'D'
        bne m_move
        jsr getdepth
        jmp main
m_move:
        cmp #'M'
        bne m_go
        jsr usermove
        jmp main
m_go:
        cmp #'G'
        bne main                ; anything else (a line end) is skipped
        jsr go
        jmp main

; getc: waits for a key. out: A
getc:
        lda CON_STATUS          ; bit 0: a key waits
        and #1
        beq getc
        lda CON_DATA
        rts

; putc: prints A. keeps all
putc:
        sta CON_DATA
        rts

; ---------------------------------------------------------------------------------------
; newgame: the start position, White to move. clobbers A, X, Y
; ---------------------------------------------------------------------------------------
newgame:
        ldx #127                ; every square empty
        lda #0
ng_clear:
        sta BOARD,x
        dex
        bpl ng_clear
        ldx #7                  ; White's pieces on rank 1, Black's on rank 8, the pawns
ng_pieces:
        lda BACKRANK,x
        sta BOARD,x
        ora #BLACK
        sta BOARD+$70,x
        lda #PAWN
        sta BOARD+$10,x
        lda #PAWN+BLACK
        sta BOARD+$60,x
        dex
        bpl ng_pieces
        lda #0
        sta SIDE
        rts
BACKRANK:
        .byte ROOK,KNIGHT,BISHOP,QUEEN,KING,BISHOP,KNIGHT,ROOK

; ---------------------------------------------------------------------------------------
; setup: reads a position (the board, the side to move, the depth). clobbers A, X, Y
; ---------------------------------------------------------------------------------------
setup:
        lda #0
        sta FROM                ; the square, a1 first
su_square:
        jsr getc                ; colour (W, B) or '.'
        sta T2
        jsr getc                ; piece letter or '.'
        ldy #0                  ; Y: the letter's place, the piece is Y + 1
su_letter:
        cmp LETTERS,y
        beq su_found
        iny
        cpy #6
        bne su_letter
        lda #0                  ; not one of the six letters: an empty square
        beq su_put
su_found:
        iny
        tya
        ldy T2
        cpy #'B'
        bne su_put
        ora #BLACK              ; a black piece
su_put:
        ldx FROM
        sta BOARD,x
        inx                     ; the next square: files 0-7, then the next rank
        txa
        and #8
        beq su_next
        txa
        clc
        adc #8
        tax
su_next:
        stx FROM
        txa
        bpl su_square
        jsr getc                ; the side to move: W or B
        ldx #0
        cmp #'B'
        bne su_side
        ldx #BLACK
su_side:
        stx SIDE
        ; the depth follows
; getdepth: reads the depth (a digit), 1 to MAXDEPTH. clobbers A
getdepth:
        jsr getc
        sec
        sbc #'0'
        beq gd_one
        cmp #MAXDEPTH+1
        bcc gd_put
        lda #MAXDEPTH
        bne gd_put
gd_one:
        lda #1
gd_put:
        sta DEPTH
        rts
LETTERS:
        .byte "PNBRQK"

; ---------------------------------------------------------------------------------------
; usermove: reads a move (e2e4) and makes it. clobbers A, X, Y
; ---------------------------------------------------------------------------------------
usermove:
        jsr sqin
        sta TMPMOVE             ; the move as an entry: from, to, piece, captured
        jsr sqin
        sta TMPMOVE+1
        ldx TMPMOVE
        lda BOARD,x
        sta TMPMOVE+2
        ldx TMPMOVE+1
        lda BOARD,x
        sta TMPMOVE+3
        lda #<TMPMOVE
        sta EPTR
        lda #>TMPMOVE
        sta EPTR+1
        jmp make

; sqin: reads a square (e2). out: A, the 0x88 square. clobbers T2
sqin:
        jsr getc
        sec
        sbc #'a'
        and #7
        sta T2
        jsr getc
        sec
        sbc #'1'
        and #7
        asl
        asl
        asl
        asl
        ora T2
        rts

; ---------------------------------------------------------------------------------------
; make: makes the move of the entry at EPTR (from, to, piece, captured) and gives the move to
; the other side; a pawn that reaches the last rank becomes a queen.
; unmake: takes it back. clobber: A, X, Y
; ---------------------------------------------------------------------------------------
make:
        ldy #2
        lda (EPTR),y            ; the piece
        sta MP
        and #7
        cmp #PAWN
        bne mk_put
        ldy #1
        lda (EPTR),y
        and #$70
        beq mk_queen            ; rank 1 (a black pawn) or rank 8 (a white one)
        cmp #$70
        bne mk_put
mk_queen:
        lda MP
        and #BLACK
        ora #QUEEN
        sta MP
mk_put:
        ldy #0
        lda (EPTR),y
        tax
        lda #0
        sta BOARD,x             ; the square it leaves is empty
        iny
        lda (EPTR),y
        tax
        lda MP
        sta BOARD,x             ; the piece on its target
        jmp turn

unmake:
        ldy #2
        lda (EPTR),y            ; the piece, back on its square
        pha
        ldy #0
        lda (EPTR),y
        tax
        pla
        sta BOARD,x
        ldy #3
        lda (EPTR),y            ; what it took (or nothing), back
        pha
        ldy #1
        lda (EPTR),y
        tax
        pla
        sta BOARD,x
turn:
        lda SIDE
        eor #BLACK
        sta SIDE
        rts

; ---------------------------------------------------------------------------------------
; genmoves: the moves of the side to move, from a1 to h8, each piece's in the order of its
; table, into the list at MLNEXT; MLSTART, MLCUR and MLEND of this ply name the list.
; Legal or not: the search tries each and drops those that leave the king attacked.
; clobbers A, X, Y
; ---------------------------------------------------------------------------------------
genmoves:
        lda PLY
        asl
        tax
        lda MLNEXT
        sta MLSTART,x
        sta MLCUR,x
        lda MLNEXT+1
        sta MLSTART+1,x
        sta MLCUR+1,x
        lda #0
        sta FROM                ; the square, a1 first
gm_square:
        ldx FROM
        lda BOARD,x
        beq gm_next             ; empty
        sta PIECE
        and #BLACK
        cmp SIDE
        bne gm_next             ; the opponent's
        lda PIECE
        and #7
        cmp #PAWN
        bne gm_knight
        jsr gen_pawn
        jmp gm_next
gm_knight:
        cmp #KNIGHT
        bne gm_bishop
        lda #<KNIGHT_STEPS
        ldx #>KNIGHT_STEPS
        jsr gen_steps
        jmp gm_next
gm_bishop:
        cmp #BISHOP
        bne gm_rook
        lda #<BISHOP_LINES
        ldx #>BISHOP_LINES
        jsr gen_lines
        jmp gm_next
gm_rook:
        cmp #ROOK
        bne gm_queen
        lda #<ROOK_LINES
        ldx #>ROOK_LINES
        jsr gen_lines
        jmp gm_next
gm_queen:
        cmp #QUEEN
        bne gm_king
        lda #<QUEEN_LINES
        ldx #>QUEEN_LINES
        jsr gen_lines
        jmp gm_next
gm_king:
        lda #<KING_STEPS
        ldx #>KING_STEPS
        jsr gen_steps
gm_next:
        inc FROM                ; the next square: files 0-7, then the next rank
        lda FROM
        and #8
        beq gm_on
        lda FROM
        clc
        adc #8
        sta FROM
gm_on:
        lda FROM
        bpl gm_square
        lda PLY
        asl
        tax
        lda MLNEXT
        sta MLEND,x
        lda MLNEXT+1
        sta MLEND+1,x
        rts

; The steps of a knight and a king, the lines of a bishop, a rook and a queen (0 ends).
KNIGHT_STEPS:
        .byte 33,31,18,14,-14,-18,-31,-33,0
KING_STEPS:
        .byte 17,16,15,1,-1,-15,-16,-17,0
BISHOP_LINES:
        .byte 17,15,-15,-17,0
ROOK_LINES:
        .byte 16,1,-1,-16,0
QUEEN_LINES:
        .byte 16,1,-1,-16,17,15,-15,-17,0

; gen_steps: the moves of PIECE on FROM by the steps of the table A (low), X (high).
; clobbers A, X, Y
gen_steps:
        sta TPTR
        stx TPTR+1
        lda #0
        sta TIDX
gs_loop:
        ldy TIDX
        lda (TPTR),y
        beq gs_done
        clc
        adc FROM
        sta TO
        and #$88
        bne gs_next             ; off the board
        jsr look
        cmp #1
        beq gs_next             ; its own piece
        jsr addmove
gs_next:
        inc TIDX
        jmp gs_loop
gs_done:
        rts

; gen_lines: the moves of PIECE on FROM along the lines of the table A (low), X (high): each
; line up to the edge or the first piece, taken if it is the opponent's. clobbers A, X, Y
gen_lines:
        sta TPTR
        stx TPTR+1
        lda #0
        sta TIDX
gl_line:
        ldy TIDX
        lda (TPTR),y
        beq gl_done
        sta DIR                 ; the line's step
        lda FROM
        sta TO
gl_step:
        lda TO
        clc
        adc DIR
        sta TO
        and #$88
        bne gl_next             ; off the board: the line ends
        jsr look
        cmp #1
        beq gl_next             ; its own piece: the line ends
        pha
        jsr addmove
        pla
        beq gl_step             ; empty: on along the line
gl_next:
        inc TIDX
        jmp gl_line
gl_done:
        rts

; gen_pawn: the moves of the pawn PIECE on FROM: one step ahead, two from its first rank,
; the two captures. clobbers A, X, Y
gen_pawn:
        lda #16                 ; ahead, for White
        ldx SIDE
        beq gp_dir
        lda #-16
gp_dir:
        sta DIR
        lda FROM
        clc
        adc DIR
        sta TO
        jsr look
        bne gp_left             ; blocked
        jsr addmove
        lda FROM                ; on its first rank: two steps
        and #$70
        sta T2
        lda #$10
        ldx SIDE
        beq gp_home
        lda #$60
gp_home:
        cmp T2
        bne gp_left
        lda TO
        clc
        adc DIR
        sta TO
        jsr look
        bne gp_left
        jsr addmove
gp_left:
        lda FROM                ; the capture towards the a-file
        clc
        adc DIR
        sta TO
        dec TO
        lda TO
        and #$88
        bne gp_right
        jsr look
        cmp #2
        bne gp_right
        jsr addmove
gp_right:
        lda FROM                ; the capture towards the h-file
        clc
        adc DIR
        sta TO
        inc TO
        lda TO
        and #$88
        bne gp_done
        jsr look
        cmp #2
        bne gp_done
        jsr addmove
gp_done:
        rts

; look: what stands on square TO. out: A = 0 empty, 1 a piece of the side to move, 2 the
; opponent's (Z when empty). clobbers X
look:
        ldx TO
        lda BOARD,x
        beq lk_done
        and #BLACK
        cmp SIDE
        beq lk_own
        lda #2
        rts
lk_own:
        lda #1
lk_done:
        rts

; addmove: the move of PIECE from FROM to TO, taking what stands on TO, into the list at
; MLNEXT. clobbers A, X, Y
addmove:
        ldy #0
        lda FROM
        sta (MLNEXT),y
        iny
        lda TO
        sta (MLNEXT),y
        iny
        lda PIECE
        sta (MLNEXT),y
        iny
        ldx TO
        lda BOARD,x             ; what it takes
        sta (MLNEXT),y
        lda MLNEXT
        clc
        adc #4
        sta MLNEXT
        bcc am_done
        inc MLNEXT+1
am_done:
        rts

; ---------------------------------------------------------------------------------------
; attacked: whether a piece of the side ATK (0 White, 8 Black) attacks square SQ. out: carry
; set if it does. clobbers A, X, Y
; ---------------------------------------------------------------------------------------
attacked:
        lda ATK                 ; its pawns: White's attack upwards, from below SQ
        ora #PAWN
        sta WANT
        lda ATK
        bne at_black_pawns
        lda SQ
        sec
        sbc #15
        jsr at
        beq at_yes
        lda SQ
        sec
        sbc #17
        jsr at
        beq at_yes
        jmp at_steps_all
at_black_pawns:
        lda SQ
        clc
        adc #15
        jsr at
        beq at_yes
        lda SQ
        clc
        adc #17
        jsr at
        beq at_yes
at_steps_all:
        lda ATK                 ; its knights and its king
        ora #KNIGHT
        sta WANT
        lda #<KNIGHT_STEPS
        ldx #>KNIGHT_STEPS
        jsr at_steps
        beq at_yes
        lda ATK
        ora #KING
        sta WANT
        lda #<KING_STEPS
        ldx #>KING_STEPS
        jsr at_steps
        beq at_yes
        lda ATK                 ; its rooks or queens on a line, its bishops or queens on a
        ora #ROOK               ; diagonal
        sta WANT
        lda #<ROOK_LINES
        ldx #>ROOK_LINES
        jsr at_lines
        beq at_yes
        lda ATK
        ora #BISHOP
        sta WANT
        lda #<BISHOP_LINES
        ldx #>BISHOP_LINES
        jsr at_lines
        beq at_yes
        clc                     ; not attacked
        rts
at_yes:
        sec
        rts

; at: whether square A is on the board and holds the piece WANT. out: Z if it does.
; clobbers A, X
at:
        tax
        and #$88
        bne at_no               ; off the board (NZ)
        lda BOARD,x
        cmp WANT
at_no:
        rts

; at_steps: whether WANT stands one of the steps of the table A (low), X (high) away from
; SQ. out: Z if it does. clobbers A, X, Y
at_steps:
        sta TPTR
        stx TPTR+1
        ldy #0
as_loop:
        lda (TPTR),y
        beq as_none
        clc
        adc SQ
        jsr at
        beq as_done
        iny
        bne as_loop
as_none:
        lda #1                  ; NZ
as_done:
        rts

; at_lines: whether WANT, or the queen of its colour, is the first piece seen from SQ along
; one of the lines of the table A (low), X (high). out: Z if it is. clobbers A, X, Y
at_lines:
        sta TPTR
        stx TPTR+1
        ldy #0
al_line:
        lda (TPTR),y
        beq as_none
        sta DIR
        lda SQ
        sta T2
al_step:
        lda T2
        clc
        adc DIR
        sta T2
        and #$88
        bne al_next             ; the edge
        ldx T2
        lda BOARD,x
        beq al_step             ; empty: on along the line
        cmp WANT
        beq al_found
        sta T3                  ; the queen of the colour of WANT?
        lda WANT
        and #BLACK
        ora #QUEEN
        cmp T3
        beq al_found
al_next:
        iny
        bne al_line
al_found:
        lda #0                  ; Z
        rts

; illegal: after a move: whether the side that moved left its king attacked. out: carry
; set if it did. clobbers A, X, Y
illegal:
        lda SIDE                ; the side now to move attacks
        sta ATK
        eor #BLACK
        ora #KING
        sta WANT                ; the king of the side that moved
        ldx #0
il_find:
        lda BOARD,x
        cmp WANT
        beq il_found
        inx
        bpl il_find
        clc                     ; no king: nothing to attack
        rts
il_found:
        stx SQ
        jmp attacked

; ---------------------------------------------------------------------------------------
; eval: the material for the side to move: EVEN plus its pieces' values less the
; opponent's (pawn 1, knight and bishop 3, rook 5, queen 9). out: A. clobbers X, Y
; ---------------------------------------------------------------------------------------
eval:
        lda #EVEN
        sta T2
        ldx #0
ev_square:
        lda BOARD,x
        beq ev_next
        sta T3
        and #7
        tay
        lda WORTH,y
        sta T4                  ; the piece's value
        lda T3
        and #BLACK
        cmp SIDE
        bne ev_theirs
        lda T2
        clc
        adc T4
        jmp ev_put
ev_theirs:
        lda T2
        sec
        sbc T4
ev_put:
        sta T2
ev_next:
        inx
        bpl ev_square
        lda T2
        rts
WORTH:
        .byte 0,1,3,3,5,9,0,0

; current: EPTR = the entry of the move being searched at this ply (MLCUR). out: Z when it
; is the end of the list (MLEND). clobbers A, X
current:
        lda PLY
        asl
        tax
        lda MLCUR,x
        sta EPTR
        lda MLCUR+1,x
        sta EPTR+1
        lda EPTR
        cmp MLEND,x
        bne cu_done
        lda EPTR+1
        cmp MLEND+1,x
cu_done:
        rts

; ---------------------------------------------------------------------------------------
; search: the value of the node at PLY for its side to move, into VALUE: at the end of the
; look-ahead its material, else the best of its moves' values, each the negation of the
; value of the position it leads to, searched within ALPHA and BETA of this ply. A move whose
; value reaches BETA refutes the move that led here: the others are not searched (a cut-off).
; Labels the adaptor reads the tree at: sr_made (a move made), sr_back (its value known),
; sr_cut (a cut-off), go_done (the root's value). clobbers A, X, Y
; ---------------------------------------------------------------------------------------
search:
        inc NODES
        bne sr_counted
        inc NODES+1
sr_counted:
        lda PLY
        cmp DEPTH
        bcc sr_inner
        jsr eval                ; the end of the look-ahead
        sta VALUE
        rts
sr_inner:
        jsr genmoves
        ldx PLY
        lda #MATED              ; no legal move: mated
        sta BESTV,x
sr_next:
        jsr current
        bne sr_move
        jmp sr_done             ; every move searched
sr_move:
        jsr make
        jsr illegal
        bcc sr_made
        jsr current             ; it leaves the king attacked: not a move
        jsr unmake
        jmp sr_advance
sr_made:
        ldx PLY                 ; the child's window: -BETA to -ALPHA
        lda BETA,x
        eor #$FF
        clc
        adc #1
        sta T2
        lda ALPHA,x
        eor #$FF
        clc
        adc #1
        sta T3
        inc PLY
        ldx PLY
        lda T2
        sta ALPHA,x
        lda T3
        sta BETA,x
        jsr search
        dec PLY
        jsr current
        jsr unmake
sr_back:
        lda VALUE               ; the child's value for its side to move
        eor #$FF
        clc
        adc #1
        sta T2                  ; the move's value here
        ldx PLY
        cmp BESTV,x
        bcc sr_alpha
        beq sr_alpha            ; not better than the best so far
        sta BESTV,x
        lda PLY
        bne sr_alpha
        jsr current             ; at the root: the best move
        lda EPTR
        sta BESTMV
        lda EPTR+1
        sta BESTMV+1
sr_alpha:
        ldx PLY
        lda T2
        cmp ALPHA,x
        bcc sr_test
        beq sr_test
        sta ALPHA,x             ; a better value: alpha rises
sr_test:
        lda ALPHA,x
        cmp BETA,x
        bcs sr_cut              ; alpha reached beta
sr_advance:
        lda PLY
        asl
        tax
        lda MLCUR,x
        clc
        adc #4
        sta MLCUR,x
        bcc sr_again
        inc MLCUR+1,x
sr_again:
        jmp sr_next
sr_cut:                         ; the rest of the list is not searched
        inc CUTS
        bne sr_done
        inc CUTS+1
sr_done:
        ldx PLY
        lda BESTV,x
        sta VALUE
        lda PLY                 ; the list is given back
        asl
        tax
        lda MLSTART,x
        sta MLNEXT
        lda MLSTART+1,x
        sta MLNEXT+1
        rts

; ---------------------------------------------------------------------------------------
; go: searches the position to DEPTH, prints the move, its value and the nodes, and plays
; it (prints "none" without a legal move). clobbers A, X, Y
; ---------------------------------------------------------------------------------------
go:
        lda #0
        sta NODES
        sta NODES+1
        sta CUTS
        sta CUTS+1
        sta BESTMV
        sta BESTMV+1
        sta PLY
        lda #MATED-1            ; the root's window: every value
        sta ALPHA
        lda #256-MATED+1
        sta BETA
        lda #<MOVES
        sta MLNEXT
        lda #>MOVES
        sta MLNEXT+1
        jsr search
go_done:
        lda BESTMV+1
        bne go_move
        ldx #TEXT_NONE-TEXTS
        jmp puts
go_move:
        lda BESTMV
        sta EPTR
        lda BESTMV+1
        sta EPTR+1
        ldx #TEXT_MOVE-TEXTS
        jsr puts
        ldy #0
        lda (EPTR),y
        jsr putsquare
        ldy #1
        lda (EPTR),y
        jsr putsquare
        ldx #TEXT_VALUE-TEXTS
        jsr puts
        lda VALUE
        sta NUM
        lda #0
        sta NUM+1
        jsr putnumber
        ldx #TEXT_NODES-TEXTS
        jsr puts
        lda NODES
        sta NUM
        lda NODES+1
        sta NUM+1
        jsr putnumber
        lda #10
        jsr putc
        jmp make                ; plays it (EPTR: the best move)
TEXTS:
TEXT_MOVE:
        .byte "move ",0
TEXT_VALUE:
        .byte " value ",0
TEXT_NODES:
        .byte " nodes ",0
TEXT_NONE:
        .byte "none",10,0

; puts: prints the text at TEXTS+X up to its 0. clobbers A, X
puts:
        lda TEXTS,x
        beq pu_done
        jsr putc
        inx
        bne puts
pu_done:
        rts

; putsquare: prints the square A (e2). clobbers A
putsquare:
        pha
        and #7
        clc
        adc #'a'
        jsr putc
        pla
        lsr
        lsr
        lsr
        lsr
        and #7
        clc
        adc #'1'
        jmp putc

; putnumber: prints the word at NUM in decimal. clobbers A, X, Y, T3
putnumber:
        lda #0
        sta SEEN                ; no leading zeros
        ldx #0
pn_place:
        ldy #'0'
pn_sub:
        lda NUM                 ; NUM less the place's value, while it goes
        sec
        sbc TENS_LO,x
        sta T3
        lda NUM+1
        sbc TENS_HI,x
        bcc pn_digit
        sta NUM+1
        lda T3
        sta NUM
        iny
        bne pn_sub
pn_digit:
        tya
        cmp #'0'
        bne pn_show
        lda SEEN
        beq pn_skip
        tya
pn_show:
        jsr putc
        lda #1
        sta SEEN
pn_skip:
        inx
        cpx #4
        bne pn_place
        lda NUM
        clc
        adc #'0'
        jmp putc
TENS_LO:
        .byte <10000,<1000,<100,<10
TENS_HI:
        .byte >10000,>1000,>100,>10
