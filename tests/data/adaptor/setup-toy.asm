; setup-toy.asm: a small console program of our own that is set up in a position the way
; Sargon's ANALYS mode is, for tests/adaptor_cli.rs (the adaptor's [[setup]] steps, [board],
; pokes by symbol and the restart).
;
; On every start it counts the starts in START_COUNT (RAM, kept across a restart), then reads
; a command key:
;   G  a game: prints "ready" and reads the next command.
;   S  a set-up, accepted only after a restart (START_COUNT >= 2, as ANALYS needs a board
;      that a game has initialised): 64 squares from a1 to h8, each `0` (empty) or five keys
;      piece,colour,moved (`K,W,0`), then the side to move (W or B). It answers with a king
;      move of the side to move, one rank forward for White and back for Black, and the depth
;      it finds in DEPTH (which the host writes), e.g. "move e1-e2 depth 3".
;   anything else, or S without a restart: prints "no" and reads the next command.
; Kempelen's own Z80 machine: console status port 0 (bit 0 = a key is waiting), data port 1.

CON_STATUS  equ 00h
CON_DATA    equ 01h
SQUARES     equ 64
; RAM (the machine's RAM starts at $4000; a fresh machine's RAM reads 0)
START_COUNT equ 4000h               ; starts since the machine was switched on
DEPTH       equ 4001h               ; the depth, written by the host
BOARD       equ 4002h               ; 64 squares, a1 = 0, a piece letter or 0

            org 0
entry:      ld sp,0
            ld hl,START_COUNT
            inc (hl)
command:    call getc
            cp 'G'
            jr z,game
            cp 'S'
            jr z,setup
refuse:     ld hl,msg_no
            call puts
            jr command
game:       ld hl,msg_ready
            call puts
            jr command

; setup: reads the board and the side to move, answers the king's move.
setup:      ld a,(START_COUNT)
            cp 2
            jr c,refuse
            ld ix,BOARD
            ld b,SQUARES
sq_next:    call getc
            cp '0'
            jr z,sq_empty
            ld c,a                  ; piece letter
            call getc               ; separator
            call getc               ; colour
            cp 'W'
            ld a,c
            jr z,sq_store
            or 20h                  ; Black: the letter in small
sq_store:   ld (ix+0),a
            call getc               ; separator
            call getc               ; moved flag (not used)
            jr sq_done
sq_empty:   ld (ix+0),0
sq_done:    inc ix
            djnz sq_next
            call getc               ; side to move
            ld d,'K'                ; the king to find
            ld e,1 << 3             ; one rank forward, as a square index step
            cp 'W'
            jr z,find
            ld d,'k'
            ld e,-(1 << 3)
find:       ld hl,BOARD
            ld c,0                  ; square index, a1 = 0
find_loop:  ld a,(hl)
            cp d
            jr z,found
            inc hl
            inc c
            ld a,c
            cp SQUARES
            jr nz,find_loop
            jr refuse
found:      ld hl,msg_move
            call puts
            ld a,c
            call put_square
            ld a,'-'
            call putc
            ld a,c
            add a,e
            call put_square
            ld hl,msg_depth
            call puts
            ld a,(DEPTH)
            add a,'0'
            call putc
            ld a,10
            call putc
            jp command

; put_square: prints the square with index A (a1 = 0, h8 = 63). Clobbers AF, B.
put_square: ld b,a
            and 7
            add a,'a'
            call putc
            ld a,b
            rrca
            rrca
            rrca
            and 7
            add a,'1'
            jr putc

; getc, puts, putc: the console routines both toys share.
            include "toy-console.inc"

msg_no:     defb "no",10,0
msg_ready:  defb "ready",10,0
msg_move:   defb "move ",0
msg_depth:  defb " depth ",0
