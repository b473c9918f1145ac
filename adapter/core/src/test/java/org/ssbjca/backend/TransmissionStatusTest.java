package org.ssbjca.backend;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The common transmission_status texts, each mapped to the action it needs. */
class TransmissionStatusTest {

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', value = {
        "The target service name could not be found. Ensure that the service name is specified correctly and/or the"
                + " routing information has been supplied.|CREATE ROUTE",
        "The session keys for this conversation could not be created or accessed. The database master key is"
                + " required for this operation.|CREATE MASTER KEY",
        "The queue 'TargetQueue' is disabled.|WITH STATUS = ON",
        "Connection attempt failed with error: '10061(No connection could be made because the target machine"
                + " actively refused it.)'.|sys.service_broker_endpoints",
        "Service Broker received an error message on this conversation. Service Broker will not transmit the"
                + " message; it will be held until the application ends the conversation.|END CONVERSATION",
        "''|not tried yet",
        "Something new in SQL Server 2030|does not know"})
    void eachStatusHasItsAction(String status, String action) {
        String explained = TransmissionStatus.explain(status);
        assertTrue(explained.contains(action), explained);
    }
}
