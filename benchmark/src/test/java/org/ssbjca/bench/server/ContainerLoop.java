package org.ssbjca.bench.server;

import jakarta.transaction.TransactionManager;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.XAConnection;
import javax.transaction.xa.XAResource;
import org.postgresql.xa.PGXADataSource;

/**
 * The JDBC ceiling's loop run inside WildFly, through the container's steps an MDB's delivery takes but without
 * ssb-jca: each thread holds its own XA connection (as a reader does) and, per message, begins a JTA transaction with
 * WildFly's transaction manager, enlists the connection's branch, runs the ceiling's statement (looked at again in the
 * same transaction while it takes nothing, as the plain loop does), calls {@link ContainerTaker} through the EJB
 * container with the message's body, and commits (one branch: one phase). The {@link Recorder} counts the committed
 * transactions and their messages, as for the MDBs. What it shows: how close any consumer that takes messages in
 * WildFly's container-managed transactions can come to the plain loop.
 */
public final class ContainerLoop {

    private ContainerLoop() {
    }

    /**
     * How many times a transaction runs the ceiling's statement while it takes nothing (as ssb-jca's RECEIVE: 5); the
     * plain loop ({@code JdbcCeiling}) looks as often.
     */
    public static final int LOOKS = 5;

    private final List<Thread> threads = new ArrayList<>();
    private final List<Exception> failures = new ArrayList<>();
    private final AtomicInteger taken = new AtomicInteger();

    /**
     * Starts the threads; they stop once {@code expected} messages are taken (or after 100 empty transactions in a
     * row each).
     */
    static ContainerLoop start(TransactionManager tm, ContainerTaker taker, String[] database, String statement,
            String queue, int count, int expected) {
        ContainerLoop loop = new ContainerLoop();
        PGXADataSource ds = new PGXADataSource();
        ds.setUrl(database[0]);
        ds.setUser(database[1]);
        ds.setPassword(database[2]);
        if (database.length > 3) {
            ds.setOptions(database[3]);
        }
        for (int t = 0; t < count; t++) {
            Thread thread = new Thread(() -> {
                try {
                    loop.run(tm, taker, ds, statement, queue, expected);
                } catch (Exception e) {
                    synchronized (loop.failures) {
                        loop.failures.add(e);
                    }
                }
            }, "bench-container-loop-" + t);
            loop.threads.add(thread);
        }
        loop.threads.forEach(Thread::start);
        return loop;
    }

    /**
     * Binds the queue's name to every parameter of {@code statement}: the loops' statements (the ceiling's and the
     * readers' own RECEIVE) take no other parameter.
     */
    public static void bindQueue(PreparedStatement take, String statement, String queue) throws SQLException {
        int parameters = (int) statement.chars().filter(ch -> ch == '?').count();
        for (int i = 1; i <= parameters; i++) {
            take.setString(i, queue);
        }
    }

    /**
     * Runs {@code take} and returns the result set holding its messages: the statement's only result, or the second
     * of the readers' three ({@code ReaderReceive}: the planner setting's row, the RECEIVE's rows, the restore's row,
     * all run in one round trip as a reader runs them; the third is left unread, as the next execution discards it).
     */
    public static ResultSet rows(PreparedStatement take, boolean between) throws SQLException {
        if (!between) {
            return take.executeQuery();
        }
        take.execute();
        if (!take.getMoreResults()) {
            throw new SQLException("no RECEIVE result between the planner settings");
        }
        return take.getResultSet();
    }

    /** Whether {@code statement} is the readers' three statements ({@link #rows}) rather than one query. */
    public static boolean between(String statement) {
        return statement.contains(";\n");
    }

    private void run(TransactionManager tm, ContainerTaker taker, PGXADataSource ds, String statement, String queue,
            int expected) throws Exception {
        XAConnection xa = ds.getXAConnection();
        try (Connection c = xa.getConnection(); PreparedStatement take = c.prepareStatement(statement)) {
            bindQueue(take, statement, queue);
            boolean between = between(statement);
            XAResource resource = xa.getXAResource();
            int emptyInARow = 0;
            while (taken.get() < expected && emptyInARow < 100) {
                tm.begin();
                boolean ok = false;
                try {
                    tm.getTransaction().enlistResource(resource);
                    byte[] body = null;
                    LoopTakeEvent event = new LoopTakeEvent();
                    event.begin();
                    for (int look = 0; body == null && look < LOOKS; look++) {
                        try (ResultSet rs = rows(take, between)) {
                            if (rs.next()) {
                                body = rs.getBytes("message_body");
                            }
                        }
                    }
                    event.taken = body != null;
                    event.commit();
                    if (body != null) {
                        taker.taken(new String(body, StandardCharsets.UTF_8));
                    }
                    tm.commit();
                    ok = true;
                    if (body != null) {
                        taken.incrementAndGet();
                        emptyInARow = 0;
                    } else {
                        emptyInARow++;
                    }
                } finally {
                    if (!ok && tm.getTransaction() != null) {
                        tm.rollback();
                    }
                }
            }
        } finally {
            xa.close();
        }
    }

    /**
     * Waits for the threads.
     *
     * @return the messages taken
     * @throws IllegalStateException with the first thread's failure
     */
    int join() throws InterruptedException {
        for (Thread t : threads) {
            t.join();
        }
        synchronized (failures) {
            if (!failures.isEmpty()) {
                Exception first = failures.get(0);
                throw new IllegalStateException("the in-WildFly loop failed: " + first, first);
            }
        }
        return taken.get();
    }
}
