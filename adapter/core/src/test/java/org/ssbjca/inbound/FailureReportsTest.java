package org.ssbjca.inbound;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A cause is news once, until a reader's turn succeeds. */
class FailureReportsTest {

    /** What mssql-jdbc says when SQL Server goes away: the same cause, each connection's own id appended. */
    private static final String RESET = "Connection reset ClientConnectionId:%s";

    @Test
    void aCauseIsNewsOnceUntilATurnSucceeds() {
        FailureReports reports = new FailureReports();

        assertTrue(reports.firstReport("relation \"ssb.message\" does not exist"));
        assertFalse(reports.firstReport("relation \"ssb.message\" does not exist"));
        assertTrue(reports.firstReport("Connection refused"), "another cause");
        reports.recovered();
        assertTrue(reports.firstReport("Connection refused"), "news again after a turn succeeded");
    }

    @Test
    void sqlServersConnectionIdsDoNotMakeACauseNewsAgain() {
        FailureReports reports = new FailureReports();

        assertTrue(reports.firstReport(RESET.formatted("cec6e498-3b1d-42a8-900c-74900264bcab")));
        assertFalse(reports.firstReport(RESET.formatted("11dbc967-9192-4b62-b49a-c0ba95ca95c2")),
                "the same failure on the next connection");
        assertTrue(reports.firstReport("Login failed for user 'ssb'. ClientConnectionId:"
                + "11dbc967-9192-4b62-b49a-c0ba95ca95c2"), "another cause");
    }

    /** {@code SSBJCA0017}: once per activation for the same figures, by whichever of its readers sees them first. */
    @Test
    void aWaitOverTheTransactionTimeoutIsSaidOncePerFigures() {
        FailureReports reports = new FailureReports();

        assertTrue(reports.firstWaitOverTimeout(300_000, 300));
        assertFalse(reports.firstWaitOverTimeout(300_000, 300), "another reader, the same figures");
        assertTrue(reports.firstWaitOverTimeout(200_000, 300), "a WaitTimeout set over JMX");
        assertFalse(reports.firstWaitOverTimeout(200_000, 300));
        assertTrue(reports.firstWaitOverTimeout(200_000, 120), "another default-timeout");
    }

    @Test
    void anIgnoredTimeoutIsSaidOnce() {
        FailureReports reports = new FailureReports();

        assertTrue(reports.firstIgnoredTimeout());
        assertFalse(reports.firstIgnoredTimeout());
    }
}
