; The 0x88 board: square = 16 * rank + file, a1 = 00h, h8 = 77h. A step off the board sets bit
; 3 (file 8-15) or bit 7 (rank 8-15, or below 0), so one AND 88h tells whether the square is
; on the board. Here a knight on b1 (01h) tries its eight jumps; C counts the squares on the
; board (three: a3, c3, d2). Watch A after AND 88h: 00h on the board, anything else off it.
        org 0
start:  ld c,0          ; squares on the board
        ld hl,jumps
next:   ld a,(hl)       ; the jump (0 ends the table)
        or a
        jr z,done
        add a,01h       ; from b1
        and 88h         ; off the board?
        jr nz,off
        inc c           ; on the board
off:    inc hl
        jr next
done:   xor a           ; the host call "done"; C holds the count
        out (0FFh),a
; the knight's jumps as 0x88 offsets: -33, -31, -18, -14, +14, +18, +31, +33
jumps:  db 0DFh,0E1h,0EEh,0F2h,0Eh,12h,1Fh,21h,0
