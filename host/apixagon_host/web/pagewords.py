"""The words the pages' scripts show (static/*.js), given them by the
server in the page's language: a JSON object in every page (base.html's
#page-words), read by app.js as `words`. A script has no English of its
own; where a word is missing it shows the key, which a test catches
(tests/web/test_web_lang.py)."""

from ..i18n import N_, _

PAGE_WORDS = {
    # live.js: the legend's blinking rows, the players' form
    "blinks": N_("blinks"),
    "blinks_fast": N_("blinks fast"),
    "name_first": N_("type a name first"),
    # jobs.js: a pull or a firmware update
    "job_pull": N_("pulling the matches…"),
    "job_update": N_("updating the firmware…"),
    "job_done": N_("all done"),
    "job_failed": N_("failed: {error}"),
    # match.js: the replay's position, the tags saved
    "ply": N_("move {ply} of {n}"),
    "saved": N_("saved"),
    # match.js: the review (review.py's grades)
    "review_running": N_("reviewing: {done} of {total} moves…"),
    "review_done": N_("reviewed at the computer's level 6"),
    "review_failed": N_("failed: {error}"),
    "review_better": N_("move {ply}, {move}: {grade}; better: {better}"),
    "review_fine": N_("move {ply}, {move}: {grade}"),
    "review_earlier": N_(
        "move {ply}, {move}: {grade}; the card fitted on {cell} at move {earlier}"
    ),
    "review_turn": N_("move {ply}: {swing} points towards {side}"),
    "grade_best": N_("best"),
    "grade_good": N_("good"),
    "grade_inaccuracy": N_("inaccuracy"),
    "grade_mistake": N_("mistake"),
    "grade_blunder": N_("blunder"),
    "grade_missed": N_("missed"),
    "grade_in-time": N_("in time"),
}


def page_words():
    """{key: words} in the language in use (the request's)."""
    return {k: _(v) for k, v in PAGE_WORDS.items()}
