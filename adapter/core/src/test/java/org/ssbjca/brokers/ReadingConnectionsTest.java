package org.ssbjca.brokers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.ssbjca.backend.ConnectionSource;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.backend.portable.SessionCountingSocketFactory;
import org.ssbjca.conformance.PostgresServer;

/** The monitoring readings' connections on PostgreSQL: bounded, kept, and replaced when the server ended one. */
class ReadingConnectionsTest {

    private static final int READERS = 6;

    @Test
    void manyReadersAtOnceShareAtMostTheBoundOfConnections() throws Exception {
        DatabaseConfig db = SessionCountingSocketFactory.counted(PostgresServer.get().newDatabase("reading_bound"));
        ReadingConnections readings = new ReadingConnections(new ConnectionSource(db));
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        CountDownLatch allStarted = new CountDownLatch(READERS);
        ExecutorService pool = Executors.newFixedThreadPool(READERS);
        try {
            List<Future<Long>> opened = new ArrayList<>();
            for (int i = 0; i < READERS; i++) {
                opened.add(pool.submit(() -> {
                    allStarted.countDown();
                    allStarted.await(10, TimeUnit.SECONDS);
                    long before = SessionCountingSocketFactory.opened();
                    for (int r = 0; r < 20; r++) {
                        readings.read(c -> {
                            most.accumulateAndGet(inside.incrementAndGet(), Math::max);
                            try (Statement st = c.createStatement();
                                    ResultSet rs = st.executeQuery("SELECT pg_sleep(0.002)")) {
                                rs.next();
                            } finally {
                                inside.decrementAndGet();
                            }
                            return null;
                        });
                    }
                    return SessionCountingSocketFactory.opened() - before;
                }));
            }
            long sessions = 0;
            for (Future<Long> f : opened) {
                sessions += f.get(60, TimeUnit.SECONDS);
            }
            assertTrue(most.get() <= ReadingConnections.MAX_OPEN, "readings at once: " + most.get());
            assertTrue(sessions <= ReadingConnections.MAX_OPEN, "sessions opened for " + READERS * 20
                    + " readings: " + sessions);
        } finally {
            pool.shutdownNow();
            readings.close();
        }
    }

    @Test
    void aKeptConnectionTheServerEndedIsReplacedAndTheReadingSucceeds() throws Exception {
        DatabaseConfig db = PostgresServer.get().newDatabase("reading_ended");
        ConnectionSource source = new ConnectionSource(db);
        ReadingConnections readings = new ReadingConnections(source);
        try {
            int pid = readings.read(c -> backendPid(c));
            assertEquals(pid, (int) readings.read(ReadingConnectionsTest::backendPid), "the connection was kept");
            try (java.sql.Connection admin = source.open(); Statement st = admin.createStatement()) {
                st.execute("SELECT pg_terminate_backend(" + pid + ")");
                admin.commit();
            }
            int next = readings.read(ReadingConnectionsTest::backendPid);
            assertTrue(next != pid, "a new session after the server ended the kept one");
        } finally {
            readings.close();
        }
    }

    private static int backendPid(java.sql.Connection c) throws java.sql.SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT pg_backend_pid()")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
