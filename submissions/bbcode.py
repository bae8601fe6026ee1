"""The "hands posted" forum post, in the forum's own style (see the end of phm-rules.txt):

02 WhammeWhamme :: "The Might of Kjeld"
Leyline of Singularity / Karakas / Kjeldoran Warrior / Mishra's Workshop / Wheel of Torture
"""

from phm.text import bbcode_text
from rounds.catalog.handlist import format_hand_list
from rounds.variants import decision_answer_rows

from .models import HandStatus
from .selectors import player_display_name


def hand_heading(hand):
    """The entry's heading for a forum post; the player's and the hand's names are made inert
    (phm.text.bbcode_text), like every text a user typed in the exports."""
    heading = f"{hand.number_label} {bbcode_text(player_display_name(hand.player))}"
    return f'{heading} :: "{bbcode_text(hand.name)}"' if hand.name else heading


def card_line(cards):
    return bbcode_text(format_hand_list(cards))


def decision_lines(round_, decisions):
    """A hand's decisions (7.2b) as forum lines, `Label: answer`, in the round's order; made inert."""
    return [
        f"{bbcode_text(label)}: {bbcode_text(str(answer))}"
        for label, answer in decision_answer_rows(round_, decisions)
    ]


def hands_posted(round_, hands):
    blocks = [f"[b]Hands posted — {round_.code} {bbcode_text(round_.title)}[/b]"]
    for hand in hands:
        lines = [
            hand_heading(hand),
            card_line(hand.current_version.cards if hand.current_version else []),
        ]
        lines += decision_lines(round_, hand.current_version.decisions if hand.current_version else {})
        if hand.status == HandStatus.DISQUALIFIED:
            reason = f": {bbcode_text(hand.disqualification_reason)}" if hand.disqualification_reason else ""
            lines.append(f"[i]Disqualified (rule 4.2a){reason}[/i]")
        elif hand.status == HandStatus.REPLACED:
            note = hand.current_version.changes_note if hand.current_version else ""
            lines.append(f"[i]{bbcode_text(note or 'Replaced by a similar hand (rule 4.2a).')}[/i]")
        if hand.notice:
            lines.append(f"[i]{bbcode_text(hand.notice)}[/i]")
        lines += [f"[i]{bbcode_text(problem)} (accepted as played)[/i]" for problem in hand.accepted_problems]
        if hand.comment:
            # As the forum had it: the moderator's comment on the line under the entry's cards.
            lines.append(bbcode_text(hand.comment))
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"
