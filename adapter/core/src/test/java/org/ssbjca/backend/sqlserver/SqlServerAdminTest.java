package org.ssbjca.backend.sqlserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ssbjca.backend.sqlserver.FakeJdbc.row;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.BrokerException;
import org.ssbjca.backend.SentBy;
import org.ssbjca.backend.Validation;

/** The administrative statements' binding and result handling, against a scripted JDBC connection. */
class SqlServerAdminTest {

    private static final UUID HANDLE = UUID.fromString("0f7bd7a6-8f4c-4b35-9b56-3c2f0e8a1d01");
    private static final UUID PEER = UUID.fromString("6b1f1d8e-2a55-4d8c-8a0e-9d6d1c2b3a02");

    private final FakeJdbc jdbc = new FakeJdbc();
    private final SqlServerTestAdmin admin = new SqlServerTestAdmin(jdbc.connection());

    @Test
    void createsEachObjectUnlessTheCatalogHasIt() {
        admin.createMessageType("EchoRequest", Validation.NONE);
        Map<String, SentBy> types = new LinkedHashMap<>();
        types.put("EchoRequest", SentBy.INITIATOR);
        types.put("EchoReply", SentBy.TARGET);
        admin.createContract("EchoContract", types);
        admin.createQueue("dbo.EchoServiceQueue");
        admin.createService("EchoService", "dbo.EchoServiceQueue", "EchoContract");
        admin.setQueueEnabled("dbo.EchoServiceQueue", false);
        assertEquals(TSqlTestAdmin.createMessageType("EchoRequest", Validation.NONE), jdbc.calls.get(0).sql);
        assertEquals(List.of("EchoRequest"), jdbc.calls.get(0).params());
        assertEquals(List.of("EchoContract"), jdbc.calls.get(1).params());
        assertTrue(jdbc.calls.get(2).sql.contains("CREATE QUEUE [dbo].[EchoServiceQueue]"), jdbc.calls.get(2).sql);
        assertEquals(List.of("[dbo].[EchoServiceQueue]"), jdbc.calls.get(2).params());
        assertEquals(List.of("EchoService"), jdbc.calls.get(3).params());
        assertEquals("ALTER QUEUE [dbo].[EchoServiceQueue] WITH STATUS = OFF;", jdbc.calls.get(4).sql);
        assertEquals(List.of(), jdbc.calls.get(4).params());
    }

    @Test
    void readsQueueStatusAndDepths() {
        jdbc.rows(row("is_receive_enabled", true)).rows().rows(row("n", 12L)).rows(row("n", 3L));
        assertTrue(admin.isQueueEnabled("EchoServiceQueue"));
        assertEquals(List.of("[EchoServiceQueue]"), jdbc.calls.get(0).params());
        BrokerException missing = assertThrows(BrokerException.class, () -> admin.isQueueEnabled("NoSuchQueue"));
        assertTrue(missing.getMessage().contains("does not exist"), missing.getMessage());
        assertEquals(12, admin.queueDepth("EchoServiceQueue"));
        assertEquals("SELECT COUNT_BIG(*) FROM [EchoServiceQueue] WITH (NOLOCK) WHERE status IN (0, 2);",
                jdbc.calls.get(2).sql);
        assertEquals(3, admin.transmissionQueueDepth());
    }

    @Test
    void readsEndpoints() {
        jdbc.rows(row("state", "CO")).rows().rows(row("conversation_handle", PEER.toString())).rows()
                .rows(row("n", 4L));
        assertEquals("CO", admin.endpointState(HANDLE));
        assertEquals(List.of(HANDLE.toString()), jdbc.calls.get(0).params());
        assertNull(admin.endpointState(PEER));
        assertEquals(PEER, admin.peerHandle(HANDLE));
        assertNull(admin.peerHandle(PEER));
        assertEquals(4, admin.endpointCount());
        assertTrue(jdbc.allResponsesUsed());
    }

    @Test
    void countsEndpointsByServiceAndStateAndListsHandles() {
        java.time.Instant begun = java.time.Instant.parse("2026-11-25T10:00:00Z");
        jdbc.rows(row("service_name", "EchoService", "state", "DI", "n", 3L, "oldest",
                java.time.OffsetDateTime.ofInstant(begun, java.time.ZoneOffset.UTC)))
                .rows(row("conversation_handle", PEER.toString())).rows(row("n", 2L));
        assertEquals(List.of(new org.ssbjca.backend.EndpointCount("EchoService", "DI", 3, begun)),
                admin.conversationEndpoints(null));
        assertEquals(TSqlAdmin.CONVERSATION_ENDPOINTS, jdbc.calls.get(0).sql);
        assertEquals(true, jdbc.calls.get(0).params().get(0), "all");
        assertEquals(List.of(PEER), admin.conversationHandles("EchoService", "DI", begun, 10));
        assertEquals(List.of("EchoService", "DI", false), jdbc.calls.get(1).params().subList(0, 3));
        assertEquals(10, jdbc.calls.get(1).params().get(4));
        assertEquals(2, admin.pendingGroupCount("EchoServiceQueue"));
        assertTrue(jdbc.allResponsesUsed());
    }

    @Test
    void errorsNameTheStatement() {
        jdbc.error(15151, "Cannot find the queue 'Nope', because it does not exist or you do not have permission.");
        BrokerException e = assertThrows(BrokerException.class, () -> admin.setQueueEnabled("Nope", true));
        assertTrue(e.getMessage().startsWith("ALTER QUEUE [Nope] WITH STATUS failed"), e.getMessage());
        assertEquals(1, jdbc.calls.size());
    }

    @Test
    void refusesBadNamesBeforeAnySql() {
        assertThrows(IllegalArgumentException.class, () -> admin.createQueue("#temp"));
        assertThrows(IllegalArgumentException.class, () -> admin.createService("S", "a.b.c"));
        assertThrows(IllegalArgumentException.class, () -> admin.createContract("C", Map.of()));
        assertThrows(IllegalArgumentException.class, () -> admin.createMessageType("m".repeat(129), Validation.NONE));
        assertEquals(0, jdbc.calls.size());
    }
}
