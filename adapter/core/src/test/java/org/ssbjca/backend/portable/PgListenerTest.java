package org.ssbjca.backend.portable;

import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.ssbjca.backend.ConnectionSource;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.backend.QueueSignals;
import org.ssbjca.conformance.PostgresServer;

/** How the PostgreSQL listener keeps listening when its connection fails. */
class PgListenerTest {

    /**
     * A connection left half-open (the server gone with no FIN or RST reaching the client, as after a network failure
     * or a failover) is noticed and replaced: without that, notifications of other JVMs never reached the readers
     * again, which then waited for their fallback poll, and nothing said so.
     */
    @Test
    void aListenerWhoseConnectionWentSilentConnectsAgain() throws Exception {
        DatabaseConfig database = PostgresServer.get().newDatabase("listener_half_open");
        QueueSignals signals = new QueueSignals();
        try (BlackHoleProxy proxy = new BlackHoleProxy(database);
                Connection other = new ConnectionSource(database).open()) {
            other.setAutoCommit(true);
            PgListener listener = new PgListener(new ConnectionSource(proxy.through(database)), signals, () -> 0);
            Thread listening = new Thread(listener, "listener");
            listening.start();
            try {
                await("the listener listens").atMost(Duration.ofSeconds(10)).until(() -> {
                    notify(other, "before");
                    return signals.generation("before") > 0;
                });
                proxy.blackHole();

                await("the listener connects again").atMost(Duration.ofSeconds(20)).until(() -> proxy.accepted() > 1);
                await("a notification after the black hole is signalled").atMost(Duration.ofSeconds(10))
                        .until(() -> {
                            notify(other, "after");
                            return signals.generation("after") > 0;
                        });
            } finally {
                listener.stop();
                listening.join(10_000);
            }
            org.junit.jupiter.api.Assertions.assertFalse(listening.isAlive(), "the listener ended when stopped");
        }
    }

    private static void notify(Connection c, String queue) throws Exception {
        try (PreparedStatement ps = c.prepareStatement("SELECT pg_notify('" + PortableBroker.CHANNEL + "', ?)")) {
            ps.setString(1, queue);
            ps.execute();
        }
    }
}
