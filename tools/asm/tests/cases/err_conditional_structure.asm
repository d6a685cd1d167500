; ELSE and ENDIF without IF, a second ELSE, ENDM without MACRO.
; cpu: z80
; error 7:9: ELSE without IF
; error 8:9: ENDIF without IF
; error 11:9: second ELSE for the IF on line 9
; error 13:9: ENDM without MACRO
        else
        endif
        if 1
        else
        else
        endif
        endm
