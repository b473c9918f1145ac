package org.ssbjca.backend.portable;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.Socket;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.ssbjca.backend.BackgroundRunner;
import org.ssbjca.backend.ConnectionSource;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.conformance.PostgresServer;

/**
 * Closing the PostgreSQL broker ends its background tasks (the LISTEN connection and the notifier) before it returns.
 * In WildFly those tasks run on the work manager's pool, which the server stops after the adapter: a task that ends
 * after that releases a permit of the stopped pool, which logged {@code java.lang.Error: Maximum permit count
 * exceeded} at every server stop.
 */
class BrokerCloseTest {

    @Test
    void closeReturnsOnlyAfterTheListenerAndTheNotifierClosedTheirConnections() throws Exception {
        DatabaseConfig db = PostgresServer.get().newDatabase("broker_close");
        String key = "broker_close";
        DatabaseConfig tracked = UnconnectedSocketFactory.through(db, Sockets.class, "&socketFactoryArg=" + key);
        List<Socket> sockets = Sockets.of(key);
        PortableBroker broker = new PortableBroker(new ConnectionSource(tracked), BackgroundRunner.daemonThreads(),
                new PortableOptions(1000, 1000, Clock.systemUTC()));
        await("the listener connects").atMost(Duration.ofSeconds(30)).until(() -> sockets.size() == 1);
        broker.committed(List.of("SomeQueue"));
        await("the notifier connects").atMost(Duration.ofSeconds(30)).until(() -> sockets.size() == 2);

        broker.close();

        assertEquals(2, sockets.size(), "no connection opened after the listener's and the notifier's");
        for (Socket s : sockets) {
            assertTrue(s.isClosed(), "connection " + sockets.indexOf(s)
                    + " (0: the listener's, 1: the notifier's) is still open when close() returned");
        }
    }

    /**
     * The listener and the notifier are long-running works too: on a work manager whose long-running pool has no free
     * thread they wait in its queue. Closing the broker does not wait for them (before, it waited 5 s and logged
     * SSBJCA0117 for each), and, run later, they return at once without connecting.
     */
    @Test
    void closeDoesNotWaitForTasksThatNeverGotAThread() throws Exception {
        DatabaseConfig db = PostgresServer.get().newDatabase("broker_close_queued");
        String key = "broker_close_queued";
        DatabaseConfig tracked = UnconnectedSocketFactory.through(db, Sockets.class, "&socketFactoryArg=" + key);
        List<Socket> sockets = Sockets.of(key);
        List<Runnable> queued = new CopyOnWriteArrayList<>();
        BackgroundRunner noThread = (name, task, refused) -> queued.add(task);
        try (org.ssbjca.fakes.LogRecords log = org.ssbjca.fakes.LogRecords.of(PortableBroker.class)) {
            PortableBroker broker = new PortableBroker(new ConnectionSource(tracked), noThread,
                    new PortableOptions(1000, 1000, Clock.systemUTC()));
            assertEquals(2, queued.size(), "the listener and the notifier wait for a thread");

            long start = System.nanoTime();
            broker.close();
            long millis = java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

            assertTrue(millis < 2_000, "close() took " + millis + " ms");
            assertEquals(List.of(), log.messages(java.util.logging.Level.WARNING, "SSBJCA0117"));
            queued.forEach(Runnable::run); // the pool frees a thread at last
            assertEquals(List.of(), sockets, "neither connected");
        }
    }

    /** pgjdbc's {@code socketFactory}: remembers every socket made, under the key given as {@code socketFactoryArg}. */
    public static final class Sockets extends UnconnectedSocketFactory {
        private static final Map<String, List<Socket>> MADE = new ConcurrentHashMap<>();
        private final List<Socket> made;

        /** @param key which list the sockets go in */
        public Sockets(String key) {
            this.made = of(key);
        }

        static List<Socket> of(String key) {
            return MADE.computeIfAbsent(key, k -> new CopyOnWriteArrayList<>());
        }

        @Override
        public Socket createSocket() {
            Socket s = new Socket();
            made.add(s);
            return s;
        }
    }
}
