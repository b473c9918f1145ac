package org.ssbjca.fakes;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/** Reads what an in-process flight recording holds, for the tests of the adapter's events. */
public final class FlightRecordings {

    private FlightRecordings() {
    }

    /**
     * @param recording a stopped recording
     * @return its events, read from a dump in a temporary file (deleted after)
     * @throws Exception if the dump cannot be written or read
     */
    public static List<RecordedEvent> events(Recording recording) throws Exception {
        Path file = Files.createTempFile("ssb-jca-events", ".jfr");
        try {
            recording.dump(file);
            return RecordingFile.readAllEvents(file);
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
