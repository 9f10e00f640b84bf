"""The words the generator makes names and addresses of."""

FIRST = ("Ana", "Luis", "Mei", "Sam", "Priya", "Omar", "Jo", "Kim", "Raul", "Tess", "Ivan")
LAST = ("Ruiz", "Chen", "Patel", "Nguyen", "Smith", "Garcia", "Okafor", "Lee", "Tran", "Park")
FOOD = (
    "Taqueria",
    "Noodle Bar",
    "Diner",
    "Pizzeria",
    "Grill",
    "Bistro",
    "Bakery",
    "Sushi",
    "Cafe",
    "Burgers",
    "Kitchen",
    "Pho",
    "Deli",
    "BBQ",
    "Cantina",
    "Wok",
)
STREETS = (
    "Main Street",
    "Oak Avenue",
    "Harbor Boulevard",
    "Mission Road",
    "Pacific Coast Highway",
    "Elm Street",
    "Broadway",
    "Valley View Drive",
    "Canyon Road",
    "Center Street",
    "Palm Avenue",
    "Ocean Boulevard",
    "Station Way",
    "Market Street",
    "Vista Drive",
)
