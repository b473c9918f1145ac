package org.ssbjca.console;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * The charts' data: the last hour of every activation and of all of them, sampled from the MXBeans every
 * {@value Histories#PERIOD_SECONDS} s and kept in the console's memory only (a restart starts it empty). Each series
 * comes as columns, one array per measure, oldest first, as the page's charts take them. Needs the role
 * {@code ssb-viewer} or {@code ssb-operator}.
 */
@Path("history")
@Produces(MediaType.APPLICATION_JSON)
public class HistoryResource {

    /** The console's one memory of the activations, written by the sampler {@link ConsoleLifecycle} starts. */
    static final Histories HISTORIES = new Histories(Histories.CAPACITY);

    /** @return {@code periodSeconds}, {@code activations} (the names with a history) and {@code overall}'s columns */
    @GET
    public JsonObject all() {
        JsonArrayBuilder names = Json.createArrayBuilder();
        HISTORIES.names().forEach(names::add);
        return Json.createObjectBuilder().add("periodSeconds", Histories.PERIOD_SECONDS).add("activations", names)
                .add("overall", columns(HISTORIES.overall().points())).build();
    }

    /** @return one activation's columns; 404 when the console has no history of it */
    @GET
    @Path("{name}")
    public JsonObject one(@PathParam("name") String name) {
        return columns(HISTORIES.of(name).orElseThrow(() -> new NotFoundException("no history of activation " + name))
                .points()).build();
    }

    /**
     * @param points a series
     * @return {@code time} (seconds since the epoch), {@code delivered}, {@code rolledBack}, {@code redelivered},
     *         {@code deadLettered} (per second), {@code meanDeliveryMillis} (null for an interval without a
     *         delivery), {@code p99DeliveryMillis}, {@code queueDepth}, {@code oldestMessageAgeSeconds}
     */
    static JsonObjectBuilder columns(List<Point> points) {
        return Json.createObjectBuilder().add("time", column(points, p -> p.millis() / 1000.0))
                .add("delivered", column(points, Point::delivered))
                .add("rolledBack", column(points, Point::rolledBack))
                .add("redelivered", column(points, Point::redelivered))
                .add("deadLettered", column(points, Point::deadLettered))
                .add("meanDeliveryMillis", column(points, Point::meanDeliveryMillis))
                .add("p99DeliveryMillis", column(points, Point::p99DeliveryMillis))
                .add("queueDepth", column(points, Point::queueDepth))
                .add("oldestMessageAgeSeconds", column(points, Point::oldestMessageAgeSeconds));
    }

    private static JsonArrayBuilder column(List<Point> points, ToDoubleFunction<Point> measure) {
        JsonArrayBuilder a = Json.createArrayBuilder();
        for (Point p : points) {
            double v = measure.applyAsDouble(p);
            if (Double.isFinite(v)) {
                a.add(v);
            } else {
                a.addNull();
            }
        }
        return a;
    }
}
