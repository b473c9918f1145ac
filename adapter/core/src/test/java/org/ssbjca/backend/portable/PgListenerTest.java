package org.ssbjca.backend.portable;

import static org.awaitility.Awaitility.await;

import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;
import org.ssbjca.backend.ConnectionSource;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.backend.QueueSignals;
import org.ssbjca.conformance.PostgresServer;
import org.ssbjca.fakes.LogRecords;

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
                await("the listener listens").atMost(Duration.ofSeconds(30)).until(() -> {
                    notify(other, "before");
                    return signals.generation("before") > 0;
                });
                proxy.blackHole();

                await("the listener connects again").atMost(Duration.ofSeconds(20)).until(() -> proxy.accepted() > 1);
                await("a notification after the black hole is signalled").atMost(Duration.ofSeconds(30))
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

    /**
     * A database that stays out of reach is said once at WARN ({@code SSBJCA0102}), and each retry after it at DEBUG
     * ({@code SSBJCA0124}) until the listener connects again: a trial of the README saw 22 warnings in one outage of
     * two minutes, where the readers say theirs once per cause.
     */
    @Test
    void aDatabaseOutOfReachIsSaidOnceAtWarnThenAtDebug() throws Exception {
        DatabaseConfig database = PostgresServer.get().newDatabase("listener_out_of_reach");
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort(); // closed below: connections to it are refused
        }
        DatabaseConfig nowhere = new DatabaseConfig(database.url().replaceFirst("//([^/:]+):\\d+/",
                "//127.0.0.1:" + port + "/"), database.user(), database.password());
        try (LogRecords logs = LogRecords.of(PgListener.class)) {
            PgListener listener = new PgListener(new ConnectionSource(nowhere), new QueueSignals(), () -> 0);
            Thread listening = new Thread(listener, "listener");
            listening.start();
            try {
                await("four failures in a row").atMost(Duration.ofSeconds(20))
                        .until(() -> logs.messages(Level.WARNING, "SSBJCA0102").size()
                                + logs.messages(Level.FINE, "SSBJCA0124").size() >= 4);
            } finally {
                listener.stop();
                listening.join(20_000);
            }
            org.junit.jupiter.api.Assertions.assertEquals(1, logs.messages(Level.WARNING, "SSBJCA0102").size(),
                    "one warning for the loss: " + logs.messages(Level.WARNING, "SSBJCA0102"));
            org.junit.jupiter.api.Assertions.assertTrue(logs.messages(Level.FINE, "SSBJCA0124").get(0)
                    .contains("failure 2 in a row"), logs.messages(Level.FINE, "SSBJCA0124").get(0));
        }
    }

    private static void notify(Connection c, String queue) throws Exception {
        try (PreparedStatement ps = c.prepareStatement("SELECT pg_notify('" + PortableBroker.CHANNEL + "', ?)")) {
            ps.setString(1, queue);
            ps.execute();
        }
    }
}
