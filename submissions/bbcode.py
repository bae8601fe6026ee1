"""The "hands posted" forum post, in the forum's own style (see the end of phm-rules.txt):

02 WhammeWhamme :: "The Might of Kjeld"
Leyline of Singularity / Karakas / Kjeldoran Warrior / Mishra's Workshop / Wheel of Torture
"""

from rounds.catalog.handlist import format_hand_list

from .models import HandStatus
from .selectors import player_display_name


def hand_heading(hand):
    heading = f"{hand.number_label} {player_display_name(hand.player)}"
    return f'{heading} :: "{hand.name}"' if hand.name else heading


def hands_posted(round_, hands):
    blocks = [f"[b]Hands posted — {round_.code} {round_.title}[/b]"]
    for hand in hands:
        lines = [
            hand_heading(hand),
            format_hand_list(hand.current_version.cards if hand.current_version else []),
        ]
        if hand.status == HandStatus.DISQUALIFIED:
            reason = f": {hand.disqualification_reason}" if hand.disqualification_reason else ""
            lines.append(f"[i]Disqualified (rule 4.2a){reason}[/i]")
        elif hand.status == HandStatus.REPLACED:
            lines.append("[i]Replaced by a similar hand (rule 4.2a)[/i]")
        if hand.notice:
            lines.append(f"[i]{hand.notice}[/i]")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"
