; An IF that never ends.
; cpu: z80
; error 5:9: IF without ENDIF
        nop
        if 1
        if 0
        nop
        endif
