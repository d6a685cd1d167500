; The TDL dialect: labels, '=' constants, the location counter '.', .LOC, .BLKB and .BLKW
; (reserved, nothing written), .BYTE, .WORD, .ASCII/.ASCIZ/.ASCIS with strings and [expr]
; bytes, .RADIX 16 and TDL's number suffixes, the ^H prefix, TDL's operators, and .DEFINE
; macros with and without parameters, one over several lines.
; cpu: z80
; option: dialect tdl
; origin: $0100
START:
        .LOC    START+100H
BASE    =       .               ; the location counter
TWO     =       2
        MVI     A,TWO*3+1       ; 3E 07
        LXI     H,BASE+1000Q    ; 21 00 03 (octal 1000 = 200H)
        MVI     B,101B          ; 06 05
        MVI     C,19.           ; 0E 13 (decimal by its point)
        MVI     D,^H1F          ; 16 1F
        MVI     E,7@4           ; 1E 03 (remainder)
        MVI     H,6!9           ; 26 0F (or)
        MVI     L,1<4+2         ; 2E 12 (shift binds tighter than +)
        MVI     A,'A'           ; 3E 41
        LXI     D,'AB'          ; 11 42 41 (two characters: A in the high byte)
        JMPR    .+2             ; 18 00
        .RADIX  16
        .BYTE   80,0A0,0BD,1D   ; 80 A0 BD 1D (in radix 16, B and D are digits)
        .RADIX  10
        .BYTE   80              ; 50
BUF:    .BLKB   3               ; reserved: nothing written (the image shows zeros)
WORDS:  .BLKW   1
        .WORD   BUF,WORDS       ; 1D 01 20 01
        .ASCII  "AB",[^H83],'C' ; 41 42 83 43
        .ASCIZ  /HI/            ; 48 49 00
        .ASCIS  "OK"            ; 4F CB
        .DEFINE OUT2[PORT,VAL]=
        [MVI    A,VAL
        OUT     PORT]
        .DEFINE BEEP=[RST 7]
        OUT2    10H,3           ; 3E 03 D3 10
        BEEP                    ; FF
        .END
; bytes: 3E 07 21 00 03 06 05 0E 13 16 1F 1E 03 26 0F 2E 12 3E 41 11 42 41 18 00
; bytes: 80 A0 BD 1D 50 00 00 00 00 00 1D 01 20 01 41 42 83 43 48 49 00 4F CB
; bytes: 3E 03 D3 10 FF
; symbol: BASE $0100
; symbol: BUF $011D
; symbol: WORDS $0120
; listing: 3E 03 D3 10
