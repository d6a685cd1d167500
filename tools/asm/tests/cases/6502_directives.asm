; ca65-style directives and *=.
; cpu: 6502
; origin: $1000
; bytes: 61 62 00 34 12 00 10 00 00 EA EA 4C 00 10
*=      $1000
start:  .byte "ab",0
        .word $1234,start
        .res 2
        .res 2,$EA
        jmp start
