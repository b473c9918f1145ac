package org.ssbjca.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ssbjca.conformance.DialogConformanceTest.begin;
import static org.ssbjca.conformance.DialogConformanceTest.bytes;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.ConversationEndedException;
import org.ssbjca.api.DialogOptions;
import org.ssbjca.api.ReceiveRequest;
import org.ssbjca.backend.portable.PortableBroker;
import org.ssbjca.tiers.Slow;

/** BEGIN CONVERSATION TIMER and the LIFETIME of a dialog. */
class TimerAndLifetimeConformanceTest {

    /** What this test reports (figures, or why a backend is skipped). */
    private static final java.util.logging.Logger FIGURES =
            java.util.logging.Logger.getLogger(TimerAndLifetimeConformanceTest.class.getName());

    /**
     * How late the portable backends may fire a timer or lifetime: a waiting session looks at least every fallback
     * poll and runs housekeeping at most every housekeeping interval, which commits at once; plus 2.5 s for a slow,
     * busy machine where a statement may take a second. A timer the waiting session did not fire would come only when
     * its 30 s RECEIVE ended.
     */
    static final long PORTABLE_LATENESS_BOUND_MILLIS = Conformance.PORTABLE_OPTIONS_FALLBACK_POLL_MILLIS
            + Conformance.PORTABLE_OPTIONS_HOUSEKEEPING_MILLIS + 2_500;
    private static final long LOOK_AFTER_MILLIS = 300;
    /** How long the idle session waits; a timer held back by its transaction would be that late. */
    private static final int IDLE_SECONDS = 12;
    /** A third of the lateness of a timer that waited for the idle session, and many times the usual lateness. */
    private static final long IDLE_LATENESS_BOUND_MILLIS = 3_500;

    @BackendTest
    void aConversationTimerDeliversDialogTimer(Db db) {
        Db.Objects o = db.objects();
        Conversation c = begin(db, o);
        // The timer is due 1 s after its statement ran, somewhere between these two instants: "not early" is
        // measured from the first, "not late" from the second, so a slow statement makes neither fail.
        long before = System.nanoTime();
        db.run(s -> s.beginConversationTimer(c.handle(), Duration.ofSeconds(1)));
        long after = System.nanoTime();

        List<BrokerMessage> got = db.tx(s -> s.receive(ReceiveRequest.from(o.initiatorQueue)
                .timeout(Duration.ofSeconds(30))));
        long arrived = System.nanoTime();
        long millis = TimeUnit.NANOSECONDS.toMillis(arrived - before);
        long lateMillis = TimeUnit.NANOSECONDS.toMillis(arrived - after) - 1000;

        assertEquals(1, got.size());
        assertTrue(got.get(0).isDialogTimer(), got.get(0).toString());
        assertEquals(c.handle(), got.get(0).conversationHandle());
        assertTrue(millis >= 900, "not before the timeout: " + millis + " ms");
        FIGURES.info(String.format("%s: a DialogTimer due after 1000 ms reached a waiting RECEIVE after %d ms", db, millis));
        if (db.broker() instanceof PortableBroker) {
            assertTrue(lateMillis <= PORTABLE_LATENESS_BOUND_MILLIS, "the timer fired " + lateMillis
                    + " ms late; the bound is " + PORTABLE_LATENESS_BOUND_MILLIS + " ms");
        }
    }

    @BackendTest
    @Slow
    void aTimerIsCommittedAtOnceWhileAnotherSessionWaitsOnAnotherQueue(Db db) throws Exception {
        Db.Objects o = db.objects();
        Conversation c = begin(db, o);
        // A RECEIVE on another queue that waits 12 s and finds nothing, in a transaction of its own (an idle
        // reader): a DialogTimer that waited for its commit would arrive some 10 s late, far beyond the bound.
        CompletableFuture<List<BrokerMessage>> idle = CompletableFuture.supplyAsync(() -> db.tx(s -> s.receive(
                ReceiveRequest.from(o.targetQueue).timeout(Duration.ofSeconds(IDLE_SECONDS)))));
        db.run(s -> s.beginConversationTimer(c.handle(), Duration.ofSeconds(1)));
        // due 1 s after the statement ran, so no later than this: lateness measured from here is never overstated
        long due = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
        // The application looks at its queue 300 ms after the timer is due.
        TimeUnit.NANOSECONDS.sleep(due + TimeUnit.MILLISECONDS.toNanos(LOOK_AFTER_MILLIS) - System.nanoTime());

        List<BrokerMessage> got = db.tx(s -> s.receive(ReceiveRequest.from(o.initiatorQueue)
                .timeout(Duration.ofSeconds(30))));
        long lateMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - due);
        FIGURES.info(String.format("%s: a DialogTimer due while another session waited on another queue was received %d ms "
                + "after it was due (the RECEIVE started %d ms after)", db, lateMillis, LOOK_AFTER_MILLIS));

        assertEquals(1, got.size());
        assertTrue(got.get(0).isDialogTimer(), got.get(0).toString());
        assertTrue(idle.get(IDLE_SECONDS + 30, TimeUnit.SECONDS).isEmpty());
        if (db.broker() instanceof PortableBroker) {
            assertTrue(lateMillis <= IDLE_LATENESS_BOUND_MILLIS, "received " + lateMillis
                    + " ms after it was due: the housekeeping's DialogTimer waited for the idle session's commit");
        }
    }

    @BackendTest
    @Slow
    void aNewTimerReplacesThePreviousOne(Db db) {
        Db.Objects o = db.objects();
        Conversation c = begin(db, o);
        // Taken before the first timer is set: the replacing one is due no earlier than 4 s after this however slow
        // the machine is; the replaced one, 2 s after its statement.
        long before = System.nanoTime();
        db.run(s -> s.beginConversationTimer(c.handle(), Duration.ofSeconds(2)));
        db.run(s -> s.beginConversationTimer(c.handle(), Duration.ofSeconds(4)));

        List<BrokerMessage> got = db.tx(s -> s.receive(ReceiveRequest.from(o.initiatorQueue)
                .timeout(Duration.ofSeconds(20))));
        long arrivedMillis = (System.nanoTime() - before) / 1_000_000;
        assertEquals(1, got.size());
        assertTrue(got.get(0).isDialogTimer(), got.get(0).toString());
        assertTrue(arrivedMillis >= 3_900, "the two-second timer was replaced: a DialogTimer arrived after "
                + arrivedMillis + " ms");
        assertEquals(List.of(), db.tx(s -> s.receive(ReceiveRequest.from(o.initiatorQueue)
                .timeout(Duration.ofSeconds(3)))), "one DialogTimer, not two");
    }

    @BackendTest
    void anExpiredLifetimeSendsErrorToBothSides(Db db) {
        Db.Objects o = db.objects();
        Conversation c = db.tx(s -> s.beginDialog(o.initiatorService, o.targetService, o.contract,
                DialogOptions.defaults().withLifetime(Duration.ofSeconds(2))));
        db.run(s -> s.send(c.handle(), o.request, bytes("slow")));
        BrokerMessage request = db.tx(s -> s.receive(ReceiveRequest.from(o.targetQueue))).get(0);
        UUID target = request.conversationHandle();

        List<BrokerMessage> atInitiator = db.tx(s -> s.receive(ReceiveRequest.from(o.initiatorQueue)
                .timeout(Duration.ofSeconds(15))));
        List<BrokerMessage> atTarget = db.tx(s -> s.receive(ReceiveRequest.from(o.targetQueue)
                .timeout(Duration.ofSeconds(15))));

        assertEquals(1, atInitiator.size());
        assertTrue(atInitiator.get(0).isError(), atInitiator.get(0).toString());
        assertTrue(atInitiator.get(0).errorCode() < 0, "an error raised by the broker has a negative code");
        assertEquals(1, atTarget.size());
        assertTrue(atTarget.get(0).isError());
        assertEquals(target, atTarget.get(0).conversationHandle());
        assertThrows(ConversationEndedException.class, () -> db.run(s -> s.send(target, o.reply, bytes("late"))));
        long before = db.endpoints();
        db.run(s -> s.endConversation(c.handle(), null, null));
        db.run(s -> s.endConversation(target, null, null));
        assertEquals(before - 2, db.endpoints());
    }
}
