; A character beyond ASCII has no one byte every machine agrees on: an error in a character
; literal and in a DB string alike, at the character, never Latin-1 in one and UTF-8 in the
; other.
; cpu: z80
; error 10:12: 'é' (U+00E9) is not ASCII
; error 11:14: 'é' (U+00E9) is not ASCII
; error 12:14: 'é' (U+00E9) is not ASCII
; error 13:15: '€' (U+20AC) is not ASCII
        org 0
        db "é"
        db "aéé"
        ld a,'é'
        db "ab€", 0
        db "plain ASCII", $E9
