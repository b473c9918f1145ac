package org.ssbjca.conformance;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.ssbjca.conformance.DialogConformanceTest.begin;
import static org.ssbjca.conformance.DialogConformanceTest.bytes;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.ReceiveRequest;
import org.ssbjca.backend.BackendKind;
import org.ssbjca.backend.EndpointCount;
import org.ssbjca.backend.PendingGroup;

/**
 * SQL Server's Service Broker times on a server whose local clock is not UTC ({@link SqlServerFixture} starts its
 * container with {@code TZ}): Microsoft documents no time zone for {@code sys.conversation_endpoints.lifetime} nor
 * for a queue's {@code message_enqueue_time} (only {@code sys.transmission_queue.enqueue_time} is documented as
 * UTC); the adapter reads both as UTC. Every instant it derives from them must then be now, within a minute, not
 * off by the server's offset. SQL Server only; skipped where no SQL Server runs, or when its offset is 0.
 */
class TimeZoneConformanceTest {

    private static final Duration SLACK = Duration.ofMinutes(1);

    @BackendTest
    void serviceBrokerTimesAreReadAsUtcOnAServerWhoseLocalClockIsNot(Db db) throws Exception {
        assumeTrue(db.broker().kind() == BackendKind.SQLSERVER, "SQL Server's clocks");
        assumeTrue(offsetMinutes(db) != 0, "the server's local clock is UTC: nothing to tell apart");
        Db.Objects o = db.objects();
        Instant before = Instant.now();
        Conversation c = begin(db, o);
        db.run(s -> s.send(c.handle(), o.request, bytes("now")));
        near("the oldest message", db.admin(a -> a.oldestMessage(o.targetQueue)), before);
        List<PendingGroup> pending = LedgerConformanceTest.ledger(db, l -> l.pendingGroups(o.targetQueue, 10));
        near("the pending group's oldest message", pending.get(0).oldestMessage(), before);
        List<EndpointCount> endpoints = db.admin(a -> a.conversationEndpoints(null));
        Instant begun = endpoints.stream().filter(e -> e.service().equals(o.initiatorService))
                .map(EndpointCount::oldestBegun).findFirst().orElse(null);
        near("the dialog's begin", begun, before);
        List<BrokerMessage> m = db.tx(s -> s.receive(ReceiveRequest.from(o.targetQueue)));
        near("the received message's enqueue time", m.get(0).enqueueTime(), before);
    }

    private static void near(String what, Instant t, Instant before) {
        Instant after = Instant.now();
        assertTrue(t != null && !t.isBefore(before.minus(SLACK)) && !t.isAfter(after.plus(SLACK)),
                what + " is " + t + ", not between " + before + " and " + after);
    }

    private static int offsetMinutes(Db db) throws Exception {
        try (Connection c = db.fixture().connect(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT DATEPART(TZOFFSET, SYSDATETIMEOFFSET());")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
