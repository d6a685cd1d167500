; IF/ELSE/ENDIF, nested, with IFDEF/IFNDEF and forward references.
; cpu: z80
; bytes: 3E 01 3E 03 3E 05 3E 06
DEBUG   equ 1
        if DEBUG
        ld a,1
        else
        ld a,2
        endif
        if DEBUG = 1
          if LATER > 10
          ld a,3
          else
          ld a,4
          endif
        endif
        ifdef DEBUG
        ld a,5
        endif
        ifndef NOT_THERE
        ld a,6
        else
        ld a,7
        endif
LATER   equ 20
