package org.ssbjca.conformance;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.ssbjca.backend.BrokerDoctor;
import org.ssbjca.backend.BrokerIdentity;
import org.ssbjca.backend.BrokerState;
import org.ssbjca.backend.StuckTransmission;

/**
 * The broker doctor's statements on a real SQL Server (Testcontainers; skipped where Docker is missing, as here):
 * sys.databases as the fixture's ENABLE_BROKER left it, a message to a service that does not exist waiting in
 * sys.transmission_queue with the status the doctor explains, and a queue disabled by poison detection after five
 * rolled back RECEIVE transactions, then enabled by the doctor's ALTER QUEUE.
 */
class SqlServerDoctorConformanceTest {

    private static final String QUEUE = "dbo.DoctorQueue";
    private static final String SERVICE = "DoctorService";
    private static SqlServerFixture fixture;

    @BeforeAll
    static void prepare() throws Exception {
        fixture = new SqlServerFixture();
        assumeTrue(fixture.unavailableReason() == null, fixture.unavailableReason());
        run("IF OBJECT_ID(N'" + QUEUE + "') IS NULL CREATE QUEUE " + QUEUE + ";",
                "IF NOT EXISTS (SELECT 1 FROM sys.services WHERE name = N'" + SERVICE + "') CREATE SERVICE ["
                        + SERVICE + "] ON QUEUE " + QUEUE + " ([DEFAULT]);",
                "ALTER QUEUE " + QUEUE + " WITH STATUS = ON, POISON_MESSAGE_HANDLING (STATUS = ON);");
    }

    @AfterAll
    static void close() {
        if (fixture != null) {
            fixture.close();
        }
    }

    @Test
    void theFixturesBrokerIsEnabledWithAnId() throws Exception {
        try (Connection c = fixture.connect()) {
            BrokerDoctor doctor = fixture.broker().doctor(c);
            BrokerState state = doctor.brokerState();
            assertEquals(SqlServerFixture.DATABASE, state.database());
            assertTrue(state.enabled());
            assertNotNull(state.brokerId());
            doctor.requireBrokerReady(new BrokerIdentity(true));
            c.rollback();
        }
    }

    @Test
    void aMessageToAMissingServiceWaitsWithTheStatusTheDoctorExplains() throws Exception {
        UUID handle;
        try (Connection c = fixture.connect(); Statement s = c.createStatement()) {
            s.execute("DECLARE @h UNIQUEIDENTIFIER; BEGIN DIALOG @h FROM SERVICE [" + SERVICE + "] TO SERVICE"
                    + " 'NoSuchDoctorService' ON CONTRACT [DEFAULT] WITH ENCRYPTION = OFF;"
                    + " SEND ON CONVERSATION @h; SELECT @h AS h;");
            try (ResultSet rs = s.getResultSet()) {
                rs.next();
                handle = UUID.fromString(rs.getString(1));
            }
            c.commit();
        }
        try (Connection c = fixture.connect()) {
            BrokerDoctor doctor = fixture.broker().doctor(c);
            await().atMost(Duration.ofSeconds(30)).until(() -> doctor.stuckTransmissions(1000).stream()
                    .anyMatch(t -> t.conversation().equals(handle) && t.status() != null && !t.status().isBlank()));
            List<StuckTransmission> stuck = doctor.stuckTransmissions(1000);
            StuckTransmission t = stuck.stream().filter(x -> x.conversation().equals(handle)).findFirst().orElseThrow();
            assertEquals("NoSuchDoctorService", t.toService());
            assertTrue(t.action().contains("CREATE ROUTE"), t.status() + " -> " + t.action());
            c.rollback();
        } finally {
            run("END CONVERSATION '" + handle + "' WITH CLEANUP;");
        }
    }

    @Test
    void fiveRolledBackReceivesDisableTheQueueAndTheDoctorEnablesIt() throws Exception {
        run("DECLARE @h UNIQUEIDENTIFIER; BEGIN DIALOG @h FROM SERVICE [" + SERVICE + "] TO SERVICE '" + SERVICE
                + "' ON CONTRACT [DEFAULT] WITH ENCRYPTION = OFF; SEND ON CONVERSATION @h;");
        try (Connection c = fixture.connect(); Statement s = c.createStatement()) {
            for (int i = 0; i < 5; i++) {
                s.execute("WAITFOR (RECEIVE TOP (1) * FROM " + QUEUE + "), TIMEOUT 5000;");
                c.rollback();
            }
        }
        try (Connection c = fixture.connect()) {
            assertFalse(fixture.broker().admin(c).isQueueEnabled(QUEUE), "disabled by poison detection");
            fixture.broker().doctor(c).enableQueue(QUEUE);
            c.commit();
            assertTrue(fixture.broker().admin(c).isQueueEnabled(QUEUE));
            c.rollback();
        }
        run("DECLARE @h UNIQUEIDENTIFIER; WHILE 1 = 1 BEGIN SELECT TOP (1) @h = conversation_handle FROM " + QUEUE
                + "; IF @@ROWCOUNT = 0 BREAK; END CONVERSATION @h WITH CLEANUP; END;");
    }

    private static void run(String... statements) throws Exception {
        try (Connection c = fixture.connect(); Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
            c.commit();
        }
    }
}
