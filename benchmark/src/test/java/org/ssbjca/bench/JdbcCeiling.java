package org.ssbjca.bench;

import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.XAConnection;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import org.postgresql.xa.PGXADataSource;
import org.ssbjca.bench.server.ContainerLoop;

/**
 * What the database allows: the same dequeue-and-commit work as a reader, done by a plain JDBC loop in this JVM
 * (no container, no transaction manager), one message per XA transaction committed in one phase. Each transaction
 * is one statement, the best a hand-written consumer of the portable schema can do: lock the conversation group
 * whose turn is next with SKIP LOCKED, delete its first message returning it (with its endpoint's columns, as
 * RECEIVE returns them), give the group a new turn; then the one-phase commit.
 */
final class JdbcCeiling {

    static final String TAKE = "WITH g AS (SELECT conversation_group_id FROM ssb.conversation_group cg"
            + " WHERE cg.queue_name = ? AND EXISTS (SELECT 1 FROM ssb.message m"
            + " WHERE m.conversation_group_id = cg.conversation_group_id)"
            + " ORDER BY cg.turn LIMIT 1 FOR UPDATE SKIP LOCKED),"
            + " d AS (DELETE FROM ssb.message WHERE queuing_order = (SELECT m.queuing_order FROM ssb.message m, g"
            + " WHERE m.conversation_group_id = g.conversation_group_id ORDER BY m.queuing_order LIMIT 1)"
            + " RETURNING *),"
            + " t AS (UPDATE ssb.conversation_group cg SET turn = nextval('ssb.turn_seq') FROM g"
            + " WHERE cg.conversation_group_id = g.conversation_group_id)"
            + " SELECT d.queuing_order, d.conversation_group_id, d.conversation_handle, d.message_sequence_number,"
            + " d.message_type_name, d.message_body, d.enqueued_at, e.conversation_id, e.service_name,"
            + " e.service_contract_name FROM d LEFT JOIN ssb.conversation_endpoint e"
            + " ON e.conversation_handle = d.conversation_handle";

    /**
     * The outbound ceiling's one statement: the rows BEGIN DIALOG and its first SEND make (the initiator's group,
     * parked as BEGIN DIALOG leaves it, and the target's; both endpoints, conversing; the message), in one round trip.
     * Parameters: initiator group, target group, initiator handle, conversation id, initiator group, target handle,
     * conversation id, target group, target group, target handle, body.
     */
    static final String SEND = "WITH ig AS"
            + " (INSERT INTO ssb.conversation_group (conversation_group_id, queue_name, turn)"
            + " VALUES (?, '" + SsbLoader.CLIENT_QUEUE + "', nextval('ssb.turn_seq') + " + (1L << 62) + ")),"
            + " tg AS (INSERT INTO ssb.conversation_group (conversation_group_id, queue_name, turn)"
            + " VALUES (?, '" + SsbLoader.QUEUE + "', nextval('ssb.turn_seq'))),"
            + " e AS (INSERT INTO ssb.conversation_endpoint (conversation_handle, conversation_id, is_initiator,"
            + " conversation_group_id, service_name, far_service, service_contract_name, state, send_sequence,"
            + " lifetime_expires_at, created_at) VALUES (?, ?, TRUE, ?, 'BenchClient', 'BenchService', 'BenchContract',"
            + " 'CO', 1, NULL, now()), (?, ?, FALSE, ?, 'BenchService', 'BenchClient', 'BenchContract', 'CO', 0, NULL,"
            + " now()))"
            + " INSERT INTO ssb.message (queue_name, conversation_group_id, conversation_handle,"
            + " message_sequence_number,"
            + " message_type_name, message_body, enqueued_at) VALUES ('" + SsbLoader.QUEUE + "', ?, ?, 0,"
            + " 'BenchRequest', ?, now())";

    /**
     * The session options of the adapter's PostgreSQL connections (none), for the loops that run the readers' own
     * RECEIVE (the ceiling's statement runs without them, as it always has).
     */
    static final String READER_OPTIONS = null;

    /**
     * @return the session options a loop running {@code statement} uses: the readers' statement in a session like
     *         theirs ({@link #READER_OPTIONS}), the ceiling's without any (null)
     */
    static String optionsFor(String statement) {
        return TAKE.equals(statement) ? null : READER_OPTIONS;
    }

    private JdbcCeiling() {
    }

    /**
     * The sending side's ceiling: {@code calls} times the rows of a BEGIN DIALOG and its first SEND, in one statement
     * and one XA transaction committed in one phase each, by {@code threads} threads.
     *
     * @param atEnd runs once every thread has finished, before they close their connections
     * @return {elapsed nanoseconds, calls committed}
     */
    static long[] send(BenchPostgres pg, int threads, int calls, int size, Runnable atEnd) throws Exception {
        java.util.concurrent.CyclicBarrier done = new java.util.concurrent.CyclicBarrier(threads, atEnd);
        PGXADataSource ds = dataSource(pg);
        AtomicInteger next = new AtomicInteger();
        AtomicLong first = new AtomicLong();
        AtomicLong last = new AtomicLong();
        inThreads(threads, "outbound-ceiling-", worker -> {
            XAConnection xa = ds.getXAConnection();
            try (Connection c = xa.getConnection(); PreparedStatement send = c.prepareStatement(SEND)) {
                XAResource resource = xa.getXAResource();
                for (int n = next.getAndIncrement(); n < calls; n = next.getAndIncrement()) {
                    Xid xid = new BenchXid(100 + worker, n);
                    first.compareAndSet(0, System.nanoTime());
                    resource.start(xid, XAResource.TMNOFLAGS);
                    java.util.UUID initiatorGroup = java.util.UUID.randomUUID();
                    java.util.UUID targetGroup = java.util.UUID.randomUUID();
                    java.util.UUID initiator = java.util.UUID.randomUUID();
                    java.util.UUID target = java.util.UUID.randomUUID();
                    java.util.UUID conversation = java.util.UUID.randomUUID();
                    Object[] values = {initiatorGroup, targetGroup, initiator, conversation, initiatorGroup,
                        target, conversation, targetGroup, targetGroup, target,
                        org.ssbjca.bench.server.Bodies.of(n, size)};
                    for (int i = 0; i < values.length; i++) {
                        send.setObject(i + 1, values[i]);
                    }
                    send.executeUpdate();
                    resource.end(xid, XAResource.TMSUCCESS);
                    resource.commit(xid, true);
                    last.accumulateAndGet(System.nanoTime(), Math::max);
                }
                done.await(60, java.util.concurrent.TimeUnit.SECONDS);
            } finally {
                xa.close();
            }
        });
        return new long[] {last.get() - first.get(), Math.min(next.get(), calls)};
    }

    /**
     * Drains {@code expected} messages with {@code threads} threads.
     *
     * @return {elapsed nanoseconds, messages taken}
     */
    static long[] drain(BenchPostgres pg, String queue, int threads, int expected) throws Exception {
        return drain(pg, TAKE, queue, threads, expected, () -> { });
    }

    /**
     * @param statement {@link #TAKE}, or the readers' own RECEIVE; every parameter is the queue's name, and a row whose
     *        first column is null is no message (the RECEIVE's marker: run it again)
     * @param atEnd runs once every thread has finished, before they close their connections (so that their
     *        backends' CPU can still be read)
     */
    static long[] drain(BenchPostgres pg, String statement, String queue, int threads, int expected,
            Runnable atEnd) throws Exception {
        java.util.concurrent.CyclicBarrier done = new java.util.concurrent.CyclicBarrier(threads, atEnd);
        PGXADataSource ds = dataSource(pg);
        String options = optionsFor(statement);
        if (options != null) {
            ds.setOptions(options);
        }
        AtomicInteger taken = new AtomicInteger();
        AtomicLong firstTake = new AtomicLong();
        AtomicLong lastCommit = new AtomicLong();
        inThreads(threads, "ceiling-", worker -> loop(ds, statement, queue, worker, expected, taken, firstTake,
                lastCommit, done));
        return new long[] {lastCommit.get() - firstTake.get(), taken.get()};
    }

    /**
     * The ceiling's statement and the readers' RECEIVE, alternately, each the first statement of an XA transaction
     * (committed in one phase) after {@code idleNanos} of idle, one message each, on one connection with the
     * adapter's session options: the statement's time (its round trip), not the commit's. The first
     * {@code warmUp} of each are not kept.
     *
     * @return {the ceiling statement's nanos, the RECEIVE's nanos}, {@code n} each
     */
    static long[][] afterIdle(BenchPostgres pg, String receive, String queue, int n, int warmUp, long idleNanos)
            throws Exception {
        PGXADataSource ds = dataSource(pg);
        ds.setOptions(READER_OPTIONS);
        XAConnection xa = ds.getXAConnection();
        try (Connection c = xa.getConnection(); PreparedStatement take = c.prepareStatement(TAKE);
                PreparedStatement readers = c.prepareStatement(receive)) {
            ContainerLoop.bindQueue(take, TAKE, queue);
            ContainerLoop.bindQueue(readers, receive, queue);
            XAResource resource = xa.getXAResource();
            long[][] nanos = new long[2][n];
            for (int i = 0; i < 2 * (warmUp + n); i++) {
                long until = System.nanoTime() + idleNanos;
                for (long left = idleNanos; left > 0; left = until - System.nanoTime()) {
                    java.util.concurrent.locks.LockSupport.parkNanos(left);
                }
                Xid xid = new BenchXid(900, i);
                resource.start(xid, XAResource.TMNOFLAGS);
                long start = System.nanoTime();
                int rows = 0;
                try (ResultSet rs = i % 2 == 0 ? take.executeQuery()
                        : ContainerLoop.rows(readers, ContainerLoop.between(receive))) {
                    while (rs.next()) {
                        if (rs.getObject(1) != null) {
                            rs.getBytes("message_body");
                            rows++;
                        }
                    }
                }
                long took = System.nanoTime() - start;
                resource.end(xid, XAResource.TMSUCCESS);
                resource.commit(xid, true);
                if (rows != 1) {
                    throw new IllegalStateException("a statement alone on the queue took " + rows + " messages");
                }
                if (i / 2 >= warmUp) {
                    nanos[i % 2][i / 2 - warmUp] = took;
                }
            }
            return nanos;
        } finally {
            xa.close();
        }
    }

    private static PGXADataSource dataSource(BenchPostgres pg) {
        PGXADataSource ds = new PGXADataSource();
        ds.setUrl(pg.url());
        ds.setUser(BenchPostgres.USER);
        ds.setPassword(BenchPostgres.PASSWORD);
        return ds;
    }

    /** One thread's work. */
    @FunctionalInterface
    private interface Work {
        void run(int worker) throws Exception;
    }

    /** Runs {@code work} on {@code threads} threads and waits for them; the first failure is thrown. */
    private static void inThreads(int threads, String name, Work work) throws Exception {
        List<Thread> workers = new ArrayList<>();
        List<Exception> failures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int worker = t;
            workers.add(new Thread(() -> {
                try {
                    work.run(worker);
                } catch (Exception e) {
                    synchronized (failures) {
                        failures.add(e);
                    }
                }
            }, name + t));
        }
        workers.forEach(Thread::start);
        for (Thread t : workers) {
            t.join();
        }
        if (!failures.isEmpty()) {
            throw failures.get(0);
        }
    }

    private static void loop(PGXADataSource ds, String statement, String queue, int worker, int expected,
            AtomicInteger taken, AtomicLong firstTake, AtomicLong lastCommit, java.util.concurrent.CyclicBarrier done)
            throws Exception {
        XAConnection xa = ds.getXAConnection();
        try (Connection c = xa.getConnection(); PreparedStatement take = c.prepareStatement(statement)) {
            XAResource resource = xa.getXAResource();
            ContainerLoop.bindQueue(take, statement, queue);
            boolean between = ContainerLoop.between(statement);
            int emptyInARow = 0;
            for (long n = 0; taken.get() < expected && emptyInARow < 100; n++) {
                Xid xid = new BenchXid(worker, n);
                firstTake.compareAndSet(0, System.nanoTime());
                resource.start(xid, XAResource.TMNOFLAGS);
                int rows = 0;
                // The statement sees one snapshot, taken before it locks the group: a group another thread's
                // transaction released meanwhile comes with messages that transaction deleted, and then nothing is
                // taken. Looked at again in the same transaction, as ssb-jca's RECEIVE does, not in a new one.
                for (int look = 0; rows == 0 && look < ContainerLoop.LOOKS; look++) {
                    try (ResultSet rs = ContainerLoop.rows(take, between)) {
                        while (rs.next()) {
                            if (rs.getObject(1) != null) {
                                rs.getBytes("message_body");
                                rows++;
                            }
                        }
                    }
                }
                resource.end(xid, XAResource.TMSUCCESS);
                resource.commit(xid, true);
                if (rows > 0) {
                    taken.addAndGet(rows);
                    lastCommit.accumulateAndGet(System.nanoTime(), Math::max);
                    emptyInARow = 0;
                } else {
                    emptyInARow++;
                }
            }
            done.await(60, java.util.concurrent.TimeUnit.SECONDS);
        } finally {
            xa.close();
        }
    }

    /** A transaction id of this loop. */
    private static final class BenchXid implements Xid {
        private final byte[] global;

        BenchXid(int worker, long n) {
            global = ByteBuffer.allocate(12).putInt(worker).putLong(n).array();
        }

        @Override
        public int getFormatId() {
            return 0x5353_4201;
        }

        @Override
        public byte[] getGlobalTransactionId() {
            return global;
        }

        @Override
        public byte[] getBranchQualifier() {
            return new byte[] {1};
        }
    }
}
