; behave-toy.asm: a small console program of our own that behaves as the adaptor must cope
; with, for tests/adaptor_cli.rs: it promotes without naming the piece, faults, prints
; garbage or an illegal move, thinks for ever with its best move so far kept in RAM, or loops
; for ever without reading input and without a move; and it moves a king it finds in a piece
; list written into its RAM (the way Microchess keeps its board).
;
; It reads commands, one key each:
;   P  prints "move a7-a8" after writing a knight (2) on a8 of its 10 x 12 board in RAM.
;   E  the same, with a8 of that board left empty (0).
;   F  writes to ROM: the run faults.
;   G  prints "xyzzy".
;   I  prints "move e1-e5".
;   T  thinks for ever: calls NODE 1024 times holding no move, then keeps e1-e2 as its best
;      move (BEST_FROM, BEST_TO, HAVE_BEST) with the score 140 (SCORE), and calls NODE on.
;   L  loops for ever without reading input, without a move.
;   K  finds its king in slot 0 of its piece list (PIECES: a square byte, rank in the high
;      nibble, file in the low one) and prints "move RC-RC" with the square one rank up.
;   a new line: nothing; any other key: the rest of the line is skipped (a `fen ...` line).
; Kempelen's own Z80 machine: console status port 0 (bit 0 = a key is waiting), data port 1.

CON_STATUS  equ 00h
CON_DATA    equ 01h
NEW_LINE    equ 10
; RAM (the machine's RAM starts at $4000; a fresh machine's RAM reads 0)
PIECES      equ 4100h               ; 32 square bytes: its 16 pieces, then its opponent's
RAM_BOARD   equ 4200h               ; 120 bytes, a 10 x 12 board: a1 = 21, a8 = 91
HAVE_BEST   equ 4300h               ; 1 when BEST_FROM and BEST_TO hold a move
BEST_FROM   equ 4301h               ; 10 x 12 squares
BEST_TO     equ 4302h
SCORE       equ 4303h               ; the best move's score, 128 = even
SQ_A8       equ 91
SQ_E1       equ 25
SQ_E2       equ 35
KNIGHT      equ 2
NODES_FIRST equ 4                   ; NODE calls before a move is held, in units of 256
RANK_UP     equ 10h                 ; one rank up in a square byte

            org 0
entry:      ld sp,0
command:    call getc
            cp 'P'
            jr z,promote
            cp 'E'
            jr z,promote_empty
            cp 'F'
            jr z,fault
            cp 'G'
            jr z,garbage
            cp 'I'
            jr z,illegal
            cp 'T'
            jr z,think
            cp 'L'
            jr z,loop
            cp 'K'
            jr z,king
            cp NEW_LINE
            jr z,command
skip:       call getc               ; the rest of the line
            cp NEW_LINE
            jr nz,skip
            jr command

; promote: a pawn to a8; the piece it became is only on the board in RAM.
promote:    ld a,KNIGHT
pr_store:   ld (RAM_BOARD+SQ_A8),a
            ld hl,msg_promote
            call puts
            jr command
promote_empty:
            xor a
            jr pr_store

; fault: a write to ROM.
fault:      ld (entry),a
            jr command

garbage:    ld hl,msg_garbage
            call puts
            jr command

illegal:    ld hl,msg_illegal
            call puts
            jr command

; think: NODE calls for ever; after the first 1024 a move is held.
think:      xor a
            ld (HAVE_BEST),a
            ld bc,0
th_first:   call node
            inc bc
            ld a,b
            cp NODES_FIRST
            jr nz,th_first
            ld a,SQ_E1
            ld (BEST_FROM),a
            ld a,SQ_E2
            ld (BEST_TO),a
            ld a,140
            ld (SCORE),a
            ld a,1
            ld (HAVE_BEST),a
th_more:    call node
            jr th_more

; loop: never reads input, never holds a move.
loop:       inc a
            jr loop

; king: the king of slot 0 one rank up.
king:       ld hl,msg_move
            call puts
            ld a,(PIECES)
            push af
            call put_square
            ld a,'-'
            call putc
            pop af
            add a,RANK_UP
            call put_square
            ld a,NEW_LINE
            call putc
            jp command

; node: one node of the search (a short delay). Clobbers nothing.
node:       push bc
            ld b,20
nd_wait:    djnz nd_wait
            pop bc
            ret

; put_square: prints the square byte A as two digits, rank then file. Clobbers AF, B.
put_square: ld b,a
            rrca
            rrca
            rrca
            rrca
            and 0Fh
            add a,'0'
            call putc
            ld a,b
            and 0Fh
            add a,'0'
            jr putc

; getc, puts, putc: the console routines both toys share.
            include "toy-console.inc"

msg_promote: defb "move a7-a8",NEW_LINE,0
msg_garbage: defb "xyzzy",NEW_LINE,0
msg_illegal: defb "move e1-e5",NEW_LINE,0
msg_move:    defb "move ",0
