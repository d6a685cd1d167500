; Local labels (@name) belong to the global label before them.
; cpu: z80
; bytes: 06 03 10 FE C9 06 02 10 FE C9 C3 02 00
; symbol: first@loop $0002
; symbol: second@loop $0007
first:  ld b,3
@loop:  djnz @loop
        ret
second: ld b,2
@loop:  djnz @loop
        ret
        jp first@loop
