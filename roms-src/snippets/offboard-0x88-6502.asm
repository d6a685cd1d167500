; The 0x88 board: square = 16 * rank + file, a1 = $00, h8 = $77. A step off the board sets
; bit 3 (file 8-15) or bit 7 (rank 8-15, or below 0), so one AND #$88 tells whether the
; square is on the board. Here a knight on b1 ($01) tries its eight jumps; Y counts the
; squares on the board (three: a3, c3, d2). Watch A after AND #$88: $00 on the board.
        .org $0200
start:  ldy #0          ; squares on the board
        ldx #0
next:   lda jumps,x     ; the jump (0 ends the table)
        beq done
        clc
        adc #$01        ; from b1
        and #$88        ; off the board?
        bne off
        iny             ; on the board
off:    inx
        bne next        ; (always)
done:   lda #0          ; the host call "done"; Y holds the count
        sta $BFFF
; the knight's jumps as 0x88 offsets: -33, -31, -18, -14, +14, +18, +31, +33
jumps:  .byte $DF,$E1,$EE,$F2,$0E,$12,$1F,$21,0
