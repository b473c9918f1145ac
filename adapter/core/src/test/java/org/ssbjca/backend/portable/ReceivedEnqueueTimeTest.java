package org.ssbjca.backend.portable;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.DialogOptions;
import org.ssbjca.api.ReceiveRequest;
import org.ssbjca.backend.BackgroundRunner;
import org.ssbjca.backend.BrokerSession;
import org.ssbjca.backend.ConnectionSource;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.conformance.PostgresServer;

/**
 * PostgreSQL's RECEIVE from a whole queue ({@link PortableSql#receiveNext}) gives each message the enqueue time its row
 * holds, to the microsecond (a time with nanoseconds is stored rounded), before 1970 too.
 */
class ReceivedEnqueueTimeTest {

    @Test
    void aReceivedMessageCarriesTheEnqueueTimeItsRowHolds() throws Exception {
        AtomicReference<Instant> now = new AtomicReference<>();
        Clock clock = new Clock() {
            @Override
            public ZoneOffset getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(java.time.ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                return now.get();
            }
        };
        DatabaseConfig db = PostgresServer.get().newDatabase("received_enqueue_time");
        ConnectionSource source = new ConnectionSource(db);
        try (PortableBroker broker = new PortableBroker(source, BackgroundRunner.daemonThreads(),
                new PortableOptions(1000, 1000, clock)); Connection c = source.open()) {
            now.set(Instant.parse("2026-11-26T10:00:00Z"));
            IdleGroupsReceiveTest.declare(broker, c);
            BrokerSession s = broker.session(c);
            Conversation d = s.beginDialog("I", "T", "C", DialogOptions.defaults());
            c.commit();
            s.afterCompletion(true);
            for (String sent : List.of("2026-11-26T10:50:12.123456Z", "2026-11-26T10:50:12.000001Z",
                    "2026-11-26T10:50:12.999999789Z", "1969-07-20T20:17:40.654321Z", "2026-11-26T10:50:13Z")) {
                now.set(Instant.parse(sent));
                s.send(d.handle(), "M", "x".getBytes(StandardCharsets.UTF_8));
                c.commit();
                s.afterCompletion(true);
                Instant stored;
                try (PreparedStatement ps = c.prepareStatement("SELECT enqueued_at FROM ssb.message"
                        + " WHERE queue_name = 'QT'"); ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    stored = rs.getObject(1, OffsetDateTime.class).toInstant();
                }
                List<BrokerMessage> got = s.receive(ReceiveRequest.from("QT"));
                c.commit();
                s.afterCompletion(true);
                assertEquals(1, got.size());
                assertEquals(stored, got.get(0).enqueueTime(), "sent at " + sent);
            }
        }
    }
}
