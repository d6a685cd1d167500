; The 6502 engine's own sliding-piece generator: the lines marked below are taken as they are
; from roms-src/6502/movegen.inc when this example is built (gq_slide and emit2), around a
; small stage of our own. The engine never tests 0x88 here: its board sits inside guard
; bytes ($FF), so a ray stops at the first byte that is not 0, a piece or the edge alike. A
; rook on d4 ($33) of an empty board: watch X walk each ray and the list at LP grow by two
; bytes (from, to) a move; 14 moves, every square of the d-file and the 4th rank.
ZP_LIST     = $10               ; the stage's names for what the engine's lines use
LP          = ZP_LIST           ; 2: the list pointer
G_FROM      = $12               ; the piece's square
G_DIRS      = $13               ; index into the direction table
G_DIR       = $14               ; the ray's direction
G_TO        = $15               ; the target square
BOARD       = $0380             ; the 0x88 board; every other byte around it is a guard
LIST        = $0500             ; the moves, two bytes each
        .org $0200
start:  ldx #0                  ; $0300-$047F: guards, then the 64 squares empty
fill:   lda #$FF
        sta BOARD-$80,x
        sta BOARD+$80,x
        txa
        and #$88
        beq empty
        lda #$FF
        bne put                 ; (always)
empty:  lda #0
put:    sta BOARD,x
        inx
        bpl fill
        lda #$33                ; a rook on d4
        sta G_FROM
        lda #<LIST
        sta LP
        lda #>LIST
        sta LP+1
        ldy #ROOK_DIRS-KNIGHT_OFFS
        jmp gq_slide
gq_done:                        ; where the engine's gq_slide ends: the host call "done"
        lda #0
        sta $BFFF
KNIGHT_OFFS:                    ; the engine's direction tables (tables.inc)
        .byte $DF,$E1,$EE,$F2,$0E,$12,$1F,$21,$00
ROOK_DIRS:
        .byte $F0,$FF,$01,$10,$00
;; take 6502/movegen.inc gq_slide
;; take 6502/movegen.inc emit2
