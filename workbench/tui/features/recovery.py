"""Unsaved work kept safe while the app runs, and offered back after a crash.

Mixed into :class:`~workbench.tui.app.WorkbenchApp`. Once the library is open, a
:class:`~workbench.library.recovery.RecoveryKeeper` writes the study after every
change (on its own thread); a clean quit deletes it. Studies left by apps that did
not quit cleanly are offered back one by one, newest first.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING

from ...state.actions import LoadState

if TYPE_CHECKING:
    from .host import AppHost
else:
    AppHost = object


def _when(updated: str) -> str:
    """SQLite's UTC ``YYYY-MM-DD HH:MM:SS`` as local time: ``14:02``, or ``2026-11-20 14:02`` on another day."""
    try:
        moment = datetime.strptime(updated, "%Y-%m-%d %H:%M:%S").replace(tzinfo=UTC).astimezone()
    except ValueError:
        return updated
    return moment.strftime("%H:%M" if moment.date() == datetime.now().astimezone().date() else "%Y-%m-%d %H:%M")


LOOK_AGAIN_SECONDS = 1.0
LOOK_AGAIN_TIMES = 5
"""A study kept by another app that still runs when this one's library opens may be a reloaded tab's, its app
ending (the server gives an app asked to quit seconds before it kills it): while one is there, studies left
behind are looked for again every :data:`LOOK_AGAIN_SECONDS`, this many times, and offered as they come."""


class Recovery(AppHost):
    """Keep the study safe in the library after every change; offer back what a crash left."""

    keeper = None
    """The :class:`RecoveryKeeper` once the library is open and writable."""
    _restore_pending = False
    """A restore question is up (or about to be): the engine holds its move until it is answered."""

    def _start_recovery(self, library, left_behind, *, look_again: bool = False) -> None:
        """Keep this app's study from now on, and offer ``left_behind``; with ``look_again`` (another running app
        keeps a study), look for studies left behind again for a few seconds (:data:`LOOK_AGAIN_SECONDS`)."""
        from ...library.recovery import RecoveryKeeper

        if self._recovery_ended:  # the library opened as the app was quitting: a clean quit left nothing to keep
            return
        if library.read_only:
            self.notify(
                "The library is read-only: unsaved work is not kept safe.",
                title="Library",
                severity="warning",
                timeout=8,
            )
            return
        self.keeper = RecoveryKeeper(library.path)
        self._keep_recovery()
        self._offer_restore(list(left_behind))
        if look_again:
            self._look_again_later(LOOK_AGAIN_TIMES)

    def _look_again_later(self, times: int) -> None:
        self.set_timer(
            LOOK_AGAIN_SECONDS,
            lambda: self.run_worker(
                lambda: self._look_again(times), thread=True, name="look-again", exit_on_error=False
            ),
        )

    def _look_again(self, times: int) -> None:
        """(A worker's thread.) Studies left behind since the library opened, claimed and offered; again a
        second later while another running app still keeps one, ``times`` in all. While a question or a dialog is
        up, nothing is looked at (an offer is not put over it) and the look does not count."""
        from ...library import Library, LibraryError
        from ...library.recovery import claim, held_elsewhere, left_behind

        keeper = self.keeper
        if self.library is None or keeper is None or self._recovery_ended:
            return
        left, held = [], True
        counted = not self._asking and len(self.screen_stack) == 1  # the looks are for when an offer can be seen
        if counted:
            try:
                # a connection of this thread's own: the app's, on the main thread, may be in a transaction (a save)
                with Library.open(self.library.path) as library:
                    # first: an app that ends after this read has its study found by the next
                    held = held_elsewhere(library)
                    found = [
                        recovered
                        for recovered in left_behind(library, own_session=keeper.session)
                        if recovered.session not in self._asked_about
                    ]
                    left = claim(library, found)
            except LibraryError:  # busy for seconds: looked at again a second later
                left, held = [], True
        try:
            times_left = times - 1 if counted else times
            self.call_from_thread(self._found_again, left, held and times_left > 0, times_left)
        except RuntimeError:  # the app has ended meanwhile: what it claimed is the next start's to offer
            pass

    def _found_again(self, left: list, look_again: bool, times: int) -> None:
        if self._recovery_ended:  # (its claims end with this process: the next start offers them)
            return
        if left:
            self._offer_restore(left)
        if look_again:
            self._look_again_later(times)

    _recovery_problem: str | None = None
    """The last failure of the keeper's writes that the user was told about."""

    _recovery_due = False
    """An offer to the keeper waits for the frame being drawn (see :meth:`_keep_recovery_after_frame`)."""

    def _keep_recovery_after_frame(self) -> None:
        """Offer the keeper the state once the input being handled is done, and with it the frame a key draws
        at once. The offer wakes the keeper's thread, and a woken thread takes the interpreter for a moment:
        mid-frame, that would delay the key's frame. The keeper waits a moment before it writes anyway."""
        if self.keeper is not None and not self._recovery_due:
            self._recovery_due = True
            self.call_later(self._keep_recovery_now_due)

    def _keep_recovery_now_due(self) -> None:
        self._recovery_due = False
        self._keep_recovery()

    def _keep_recovery(self) -> None:
        if self.keeper is not None:
            # the keeper writes on its thread: a failure of an earlier write is told at the next change, once
            problem = self.keeper.error
            if problem and problem != self._recovery_problem:
                self.notify(
                    f"{problem}; unsaved work is not being kept safe.", title="Library", severity="warning", timeout=8
                )
            self._recovery_problem = problem
            self.keeper.offer(self.store.state, path=self.study_path, name=self.study_name)

    _asked_about: frozenset[str] = frozenset()
    """The sessions of the studies offered so far, or to be: one kept for later is not asked about again by this
    app, nor one waiting its turn found again."""
    _to_offer: tuple = ()
    """Studies to offer after the question that is up."""
    _question = None
    """The restore question last put."""

    @property
    def _asking(self) -> bool:
        """A restore question is up (one popped unanswered, by a quit from practice say, is not)."""
        return self._question is not None and self._question in self.screen_stack

    def _offer_restore(self, left: list) -> None:
        """Ask about each of ``left`` in turn, after any question about an earlier one."""
        self._to_offer = (*self._to_offer, *left)
        self._asked_about |= {recovered.session for recovered in left}
        if not self._asking:
            self._ask_next()

    def _ask_next(self) -> None:
        self._question = None
        self._restore_pending = bool(self._to_offer)
        if not self._to_offer:
            self._maybe_engine_move()  # held while the questions were up
            return
        from ..dialogs import Confirm

        recovered, self._to_offer = self._to_offer[0], self._to_offer[1:]
        where = recovered.path or recovered.name or "an untitled study"
        moves = len(recovered.state.tree.nodes) - 1
        when = _when(recovered.updated)
        question = f"Restore the unsaved study from {when}? ({where}, {moves} move{'s' if moves != 1 else ''})"

        def restore() -> None:
            self.store.dispatch(LoadState(state=recovered.state, unsaved=True))
            self.study_path, self.study_name = recovered.path, recovered.name
            self._forget_stored()  # which is newer, the kept copy or the restored one, is not known here
            self._update_title()
            self._keep_recovery()
            self.notify("Restored: save it to keep it (ctrl+s).", timeout=4)
            drop_then_offer_the_rest()

        def drop_then_offer_the_rest() -> None:
            assert self.keeper is not None  # pragma: no mutate - set before the first offer
            self.keeper.drop(recovered.session)
            self._ask_next()

        def kept_for_later() -> None:
            assert self.keeper is not None  # pragma: no mutate - set before the first offer
            self.keeper.release(recovered.session)  # (claimed while it was asked about: see library.recovery.claim)
            self.notify(f"Kept for later: the unsaved study from {when} is offered again at the next start.", timeout=6)
            self._ask_next()

        def answered(discard: bool | None) -> None:
            if discard:
                drop_then_offer_the_rest()
                return
            # restoring is the default answer (declining is what loses work); over a study with unsaved changes of
            # its own (one restored a moment ago, or moves played while the library opened), that study is asked
            # about first, saying why; cancelled, the one offered stays kept for the next start
            self._unless_unsaved(
                restore,
                why=f"Restoring the study from {when} replaces the open one, which has unsaved changes.",
                otherwise=kept_for_later,
            )

        self._question = Confirm(question, yes="Discard", no="Restore")
        self.push_screen(self._question, answered)

    _recovery_ended = False
    """Recovery has ended (a clean quit, or the app's end): a library that opens after it keeps nothing."""

    def _end_recovery(self, *, clean: bool) -> None:
        if self.keeper is not None:
            self.keeper.close(clean=clean)
            self.keeper = None
        elif not clean and not self._recovery_ended and self.library_status == "opening":
            self._keep_while_the_library_opens()
        self._recovery_ended = True

    def _keep_while_the_library_opens(self) -> None:
        """The app ends (a killed server, a closed terminal) before its library opened: keep the study now,
        in the app's last moments, on a connection of its own (the opening thread's result comes too late)."""
        if not self.store.state.modified:
            return
        import uuid

        from ...library import Library, LibraryError
        from ...library.recovery import keep

        try:
            with Library.open(self.db_path) as library:
                if not library.read_only:
                    keep(library, uuid.uuid4().hex, self.store.state, path=self.study_path, name=self.study_name)
        except LibraryError:  # no library to keep it in: as when the library cannot open at all
            pass
