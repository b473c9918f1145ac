package org.ssbjca.backend.sqlserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ssbjca.backend.sqlserver.FakeJdbc.row;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.ssbjca.backend.BrokerIdentity;
import org.ssbjca.backend.BrokerState;
import org.ssbjca.backend.FailedDelivery;
import org.ssbjca.backend.StuckTransmission;

/**
 * The broker doctor's statements on SQL Server, golden texts checked against Microsoft Learn (sys.databases,
 * sys.transmission_queue, ALTER QUEUE), and their results as mssql-jdbc hands them over: a UNIQUEIDENTIFIER read as
 * text, a bit as a boolean, {@code enqueue_time} cast to DATETIMEOFFSET.
 */
class SqlServerDoctorTest {

    private static final UUID BROKER = UUID.fromString("5ad4e4a3-0c59-4a0f-9a8c-7f2b6d9c1e01");
    private static final UUID RESTORED = UUID.fromString("8e7f6a5b-1c2d-4e3f-8a9b-0c1d2e3f4a02");
    private static final UUID HANDLE = UUID.fromString("0f7bd7a6-8f4c-4b35-9b56-3c2f0e8a1d01");

    private final FakeJdbc jdbc = new FakeJdbc();
    private final SqlServerDoctor doctor = new SqlServerDoctor(jdbc.connection());

    @Test
    void statementsAreTheDocumentedOnes() {
        assertEquals("SELECT name, is_broker_enabled, service_broker_guid FROM sys.databases"
                + " WHERE database_id = DB_ID();", TSqlDoctor.BROKER_STATE);
        assertEquals("SET NOCOUNT ON;\nDECLARE @max INT = ?;\nSELECT TOP (@max) to_service_name, conversation_handle,"
                + " CAST(enqueue_time AS DATETIMEOFFSET(7)) AS enqueued, transmission_status\n"
                + "FROM sys.transmission_queue WITH (NOLOCK)\nORDER BY enqueue_time, message_sequence_number;",
                TSqlDoctor.STUCK_TRANSMISSIONS);
        assertEquals("SELECT COUNT_BIG(*) FROM sys.transmission_queue WITH (NOLOCK) WHERE transmission_status <> N'';",
                TSqlDoctor.STUCK_COUNT);
        assertEquals("ALTER QUEUE [dbo].[Orders Queue] WITH STATUS = ON;",
                TSqlDoctor.enableQueue(SqlServerNames.queue("dbo.[Orders Queue]")));
    }

    @Test
    void readsTheBrokerStateAndRefusesADisabledOrChangedBroker() {
        jdbc.rows(row("name", "Orders", "is_broker_enabled", true, "service_broker_guid", BROKER.toString()))
                .rows(row("name", "Orders", "is_broker_enabled", false, "service_broker_guid", BROKER.toString()))
                .rows(row("name", "Orders", "is_broker_enabled", true, "service_broker_guid", RESTORED.toString()));
        BrokerIdentity identity = new BrokerIdentity(true);
        doctor.requireBrokerReady(identity);
        assertEquals(BROKER, identity.seen());
        assertEquals(TSqlDoctor.BROKER_STATE, jdbc.calls.get(0).sql);
        IllegalStateException disabled = assertThrows(IllegalStateException.class,
                () -> doctor.requireBrokerReady(identity));
        assertTrue(disabled.getMessage().contains("ALTER DATABASE [Orders] SET ENABLE_BROKER WITH ROLLBACK IMMEDIATE"),
                disabled.getMessage());
        IllegalStateException changed = assertThrows(IllegalStateException.class,
                () -> doctor.requireBrokerReady(identity));
        assertTrue(changed.getMessage().contains("changed from " + BROKER + " to " + RESTORED), changed.getMessage());
        assertTrue(jdbc.allResponsesUsed());
    }

    @Test
    void listsTheTransmissionQueueWithWhatToDo() {
        Instant enqueued = Instant.parse("2026-12-01T22:00:00Z");
        jdbc.rows(row("to_service_name", "ShippingService", "conversation_handle", HANDLE.toString(), "enqueued",
                OffsetDateTime.ofInstant(enqueued, ZoneOffset.UTC), "transmission_status",
                "The target service name could not be found. Ensure that the service name is specified correctly"
                        + " and/or the routing information has been supplied."));
        List<StuckTransmission> stuck = doctor.stuckTransmissions(50);
        assertEquals(1, stuck.size());
        StuckTransmission s = stuck.get(0);
        assertEquals("ShippingService", s.toService());
        assertEquals(HANDLE, s.conversation());
        assertEquals(enqueued, s.enqueued());
        assertTrue(s.action().contains("CREATE ROUTE"), s.action());
        assertEquals(List.of(50), jdbc.calls.get(0).params());
        assertThrows(IllegalArgumentException.class, () -> doctor.stuckTransmissions(0));
    }

    @Test
    void readsTheLastFailedDeliveryOfAQueueAndEnablesIt() {
        Instant at = Instant.parse("2026-12-01T22:05:00Z");
        jdbc.rows(row("conversation_handle", HANDLE.toString(), "message_sequence_number", 3L, "attempts", 5,
                "last_error", "java.lang.IllegalStateException: no such order", "last_attempt_at",
                OffsetDateTime.ofInstant(at, ZoneOffset.UTC))).rows().nothing();
        FailedDelivery last = doctor.lastFailedDelivery("dbo.OrdersQueue");
        assertEquals(new FailedDelivery(HANDLE, 3, 5, "java.lang.IllegalStateException: no such order", at), last);
        assertEquals(List.of("dbo.OrdersQueue"), jdbc.calls.get(0).params());
        assertNull(doctor.lastFailedDelivery("dbo.OrdersQueue"));
        doctor.enableQueue("dbo.OrdersQueue");
        assertEquals("ALTER QUEUE [dbo].[OrdersQueue] WITH STATUS = ON;", jdbc.calls.get(2).sql);
        assertTrue(jdbc.allResponsesUsed());
    }

    @Test
    void aBrokerStateWithoutIdIsNeverRefusedForItsId() {
        BrokerIdentity identity = new BrokerIdentity(true);
        assertNull(identity.refusal(new BrokerState("x", true, null)));
        assertFalse(identity.refusal(new BrokerState("x", false, null)) == null);
    }
}
