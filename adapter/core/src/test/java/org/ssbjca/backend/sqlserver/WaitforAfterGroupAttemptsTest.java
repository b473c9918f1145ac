package org.ssbjca.backend.sqlserver;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.ReceiveRequest;
import org.ssbjca.backend.QueueSignals;

/**
 * Issue 45 point 8: a WAITFOR (RECEIVE ...) in a transaction that already holds conflicting locks, after the
 * RECEIVE ... WHERE conversation_group_id attempts on prioritised groups, comes back empty at once instead of waiting.
 * A reader whose queue keeps a prioritised group that yields nothing (its messages retained, or taken by another
 * reader since the NOLOCK read) would then go round turn after turn without ever waiting: a busy loop.
 *
 * <p>The double behaves as that: the priority query names a group, the group's RECEIVE finds nothing but leaves its
 * lock in the transaction, and a WAITFOR (RECEIVE ...) in a transaction holding such a lock returns empty at once,
 * while one in a transaction without returns empty after its whole TIMEOUT. Time is the double's: what the server
 * waited (WAITFOR TIMEOUTs served, WAITFOR DELAY pauses), so the test counts RECEIVEs per second of idle over a fixed
 * number of turns, not over a measured time.
 */
class WaitforAfterGroupAttemptsTest {

    private static final String QUEUE = "dbo.EchoServiceQueue";
    private static final UUID GROUP = UUID.fromString("6b1f1d8e-2a55-4d8c-8a0e-9d6d1c2b3a02");
    private static final int TURNS = 10;
    /** At most this many RECEIVE statements per second of idle: a turn's group attempt and its WAITFOR, each second. */
    private static final double MOST_RECEIVES_PER_IDLE_SECOND = 4;

    private final FakeJdbc jdbc = new FakeJdbc();
    private final SqlServerSession session = new SqlServerSession(new QueueSignals(), jdbc.connection());
    private boolean groupLockHeld;
    private long idleMillis;
    private int receives;

    @Test
    void anIdleReaderAfterEmptyGroupAttemptsWaitsInsteadOfSpinning() {
        SqlServerNames.QueueName queue = SqlServerNames.queue(QUEUE);
        String candidates = TSql.priorityCandidates(queue);
        String groupReceive = TSql.receivePrioritisedGroup(queue);
        String waitFor = TSql.receive(queue, TSql.Filter.NONE, true);
        jdbc.answering(call -> {
            if (call.sql.equals(candidates)) {
                return List.of(FakeJdbc.row("conversation_group_id", GROUP.toString()));
            }
            if (call.sql.equals(groupReceive)) {
                receives++;
                groupLockHeld = true; // nothing received, the group locked to the end of the transaction
                return List.of();
            }
            if (call.sql.equals(waitFor)) {
                receives++;
                if (!groupLockHeld) {
                    idleMillis += ((Number) call.params().get(1)).intValue(); // waited its TIMEOUT out
                }
                return List.of();
            }
            if (call.sql.equals(TSql.PAUSE)) {
                idleMillis += millis((String) call.params().get(0));
                return List.of();
            }
            throw new AssertionError("unexpected statement: " + call.sql);
        });
        ReceiveRequest any = ReceiveRequest.from(QUEUE).top(10).timeout(Duration.ofSeconds(2));

        for (int turn = 0; turn < TURNS; turn++) {
            assertTrue(session.receive(any, true, false).isEmpty());
            groupLockHeld = false; // the turn's transaction ends
            session.afterCompletion(true);
        }

        double perIdleSecond = idleMillis == 0 ? Double.POSITIVE_INFINITY : receives * 1000.0 / idleMillis;
        assertTrue(perIdleSecond <= MOST_RECEIVES_PER_IDLE_SECOND, receives + " RECEIVEs in " + TURNS + " idle turns"
                + " that waited " + idleMillis + " ms in all: " + perIdleSecond + " per second of idle");
    }

    /** @return the milliseconds of a WAITFOR DELAY's 'hh:mm:ss.mss' */
    private static long millis(String delay) {
        String[] parts = delay.split("[:.]");
        return ((Long.parseLong(parts[0]) * 60 + Long.parseLong(parts[1])) * 60 + Long.parseLong(parts[2])) * 1000
                + Long.parseLong(parts[3]);
    }
}
