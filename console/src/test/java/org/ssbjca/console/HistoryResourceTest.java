package org.ssbjca.console;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The history as the page and the recipe get it: columns, oldest first, null for an interval without a delivery. */
class HistoryResourceTest {

    @Test
    void aSeriesIsColumnsOldestFirstWithNullForNoMean() {
        List<Point> points = List.of(new Point(5_000, 0, 0, 0, 0, 0, Double.NaN, 0, 3, 1),
                new Point(10_000, 2.5, 0.2, 0.2, 0, 12, 4.5, 9, 0, 0));
        assertEquals("{\"time\":[5.0,10.0],\"delivered\":[0.0,2.5],\"rolledBack\":[0.0,0.2],"
                + "\"redelivered\":[0.0,0.2],\"deadLettered\":[0.0,0.0],\"meanDeliveryMillis\":[null,4.5],"
                + "\"p99DeliveryMillis\":[0.0,9.0],\"queueDepth\":[3.0,0.0],\"oldestMessageAgeSeconds\":[1.0,0.0]}",
                HistoryResource.columns(points).build().toString());
    }
}
