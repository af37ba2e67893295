//! The orders service: a poem-openapi API whose unsafe operations declare their intent, and the
//! route that serves it with the idempotency layer. The example's `main` serves it; the crate's
//! tests serve it too, on a real socket.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use poem::{EndpointExt, Route};
use poem_idempotency::Idempotency;
use poem_idempotency::openapi::annotated_document_endpoint;
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Object, OpenApi, OpenApiService};

/// An order as clients send it.
#[derive(Debug, Clone, Object)]
pub struct NewOrder {
    /// What is ordered.
    pub item: String,
    /// How many.
    pub quantity: u32,
}

/// An order as the service keeps it.
#[derive(Debug, Clone, Object)]
pub struct Order {
    /// Its number, in the order orders were created.
    pub number: u64,
    /// What is ordered.
    pub item: String,
    /// How many.
    pub quantity: u32,
    /// How many times it was shipped: a retry that executed again would show here.
    pub shipments: u32,
}

#[derive(ApiResponse)]
enum Created {
    /// The order, created.
    #[oai(status = 201)]
    Order(Json<Order>),
}

#[derive(ApiResponse)]
enum Shipped {
    /// The order, shipped.
    #[oai(status = 200)]
    Order(Json<Order>),
    /// No order has this number.
    #[oai(status = 404)]
    NotFound,
}

/// The orders, in this process's memory.
#[derive(Default)]
pub struct OrdersApi {
    orders: Mutex<Vec<Order>>,
    /// How long shipping takes: long enough, in the tests, for a duplicate to arrive meanwhile.
    shipping_takes: Duration,
}

impl OrdersApi {
    /// Orders whose shipping takes `shipping_takes`.
    pub fn new(shipping_takes: Duration) -> Self {
        Self {
            orders: Mutex::default(),
            shipping_takes,
        }
    }
}

#[poem_idempotency::intents]
#[OpenApi]
impl OrdersApi {
    /// Create an order
    ///
    /// Send an `Idempotency-Key` and retry with the same one: the order is created once, and
    /// every retry gets its 201 back.
    #[idempotent(outside_database = "keeps the order in this process's memory")]
    #[oai(path = "/orders", method = "post", operation_id = "createOrder")]
    async fn create(&self, order: Json<NewOrder>) -> Created {
        let mut orders = self.orders.lock().expect("the orders");
        let order = Order {
            number: orders.len() as u64 + 1,
            item: order.0.item,
            quantity: order.0.quantity,
            shipments: 0,
        };
        orders.push(order.clone());
        Created::Order(Json(order))
    }

    /// Ship an order
    ///
    /// Takes a while (a carrier is called). Requires an `Idempotency-Key`, and refuses to run
    /// (503) when the idempotency store is unreachable rather than risk shipping twice.
    #[idempotent(
        key_required,
        on_store_failure = "reject",
        outside_database = "calls the carrier and counts the shipment in memory"
    )]
    #[oai(
        path = "/orders/:number/ship",
        method = "post",
        operation_id = "shipOrder"
    )]
    async fn ship(&self, number: Path<u64>) -> Shipped {
        tokio::time::sleep(self.shipping_takes).await;
        let mut orders = self.orders.lock().expect("the orders");
        match orders.iter_mut().find(|order| order.number == number.0) {
            Some(order) => {
                order.shipments += 1;
                Shipped::Order(Json(order.clone()))
            }
            None => Shipped::NotFound,
        }
    }

    /// List the orders
    #[oai(path = "/orders", method = "get", operation_id = "listOrders")]
    async fn list(&self) -> Json<Vec<Order>> {
        Json(self.orders.lock().expect("the orders").clone())
    }
}

/// The whole service: the API, its document at `/openapi.json`, and the layer in the request
/// data, where every guard finds it.
pub fn service(api: OrdersApi, idempotency: Arc<Idempotency>) -> Route {
    let api = OpenApiService::new(api, "Orders", "1.0");
    // The document with each operation's declared intent and the `Idempotency-Key` header.
    let document = annotated_document_endpoint(&api, idempotency.settings());
    Route::new()
        .at("/openapi.json", document)
        .nest("/", api.data(idempotency))
}
