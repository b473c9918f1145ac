package org.ssbjca.backend.portable;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.ssbjca.api.MessageTypes;
import org.ssbjca.backend.Jdbc;

/**
 * What SQL Server's broker does in the background, done by whichever session receives next (at most once per
 * interval per database): conversation timers that expired deliver DialogTimer; dialogs whose LIFETIME expired get an
 * Error message on both sides. Rows another transaction holds are skipped and handled on a later pass.
 */
final class Housekeeping {

    private final PortableBroker broker;
    private final long intervalNanos;
    private final AtomicLong nextRun = new AtomicLong(Long.MIN_VALUE);

    Housekeeping(PortableBroker broker, long intervalMillis) {
        this.broker = broker;
        this.intervalNanos = intervalMillis * 1_000_000L;
    }

    void runIfDue(PortableSession session) {
        long now = System.nanoTime();
        long due = nextRun.get();
        if ((due != Long.MIN_VALUE && now - due < 0) || !nextRun.compareAndSet(due, now + intervalNanos)) {
            return;
        }
        try {
            run(session);
        } catch (SQLException e) {
            throw PortableSession.failure("firing conversation timers and lifetimes", e);
        }
    }

    /** Runs one pass now. */
    void run(PortableSession session) throws SQLException {
        PortableSql sql = broker.sql();
        Connection c = session.connection();
        Instant now = broker.now();
        List<UUID> timers = Jdbc.list(c, sql.dueTimers, rs -> Jdbc.uuid(rs, "conversation_handle"), now);
        for (UUID handle : timers) {
            Endpoint e = session.endpoint(handle);
            Jdbc.update(c, sql.clearTimer, handle);
            if (e != null && !e.hasEnded()) {
                session.messages().enqueueToSelf(e, MessageTypes.DIALOG_TIMER, null);
            }
        }
        List<UUID> expired = Jdbc.list(c, sql.dueLifetimes, rs -> Jdbc.uuid(rs, "conversation_handle"), now);
        for (UUID handle : expired) {
            Endpoint e = session.endpoint(handle);
            Jdbc.update(c, sql.expireEndpoint, handle);
            if (e != null && !e.hasEnded()) {
                session.messages().enqueueToSelf(e, MessageTypes.ERROR,
                        ErrorBody.of(ErrorBody.LIFETIME_EXPIRED, "The dialog has exceeded the specified LIFETIME."));
            }
        }
    }
}
