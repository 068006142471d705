import type { ReferenceRow } from './types';

export type CityRow = ReferenceRow<{ name: string; stateId: number }>;

/**
 * The cities and industrial towns a road-logistics company picks up from and delivers to, per state (id =
 * GST state code). A city's id is `stateId * 100 + its place in the state's list`: lists only ever grow at
 * the end, never reorder, so ids stay what events already store (Mumbai 2701, Pune 2702, Nagpur 2703,
 * Bengaluru 2901, Mysuru 2902, Chennai 3301, Coimbatore 3302, New Delhi 701, Ahmedabad 2401, Surat 2402,
 * Kolkata 1901 — the cities of the fixed catalogue before the Masters capability).
 */
const BY_STATE: Readonly<Record<number, readonly string[]>> = {
  1: ['Srinagar', 'Jammu', 'Kathua', 'Samba', 'Udhampur', 'Anantnag', 'Baramulla', 'Sopore'],
  2: ['Shimla', 'Baddi', 'Solan', 'Nalagarh', 'Parwanoo', 'Mandi', 'Dharamshala', 'Una', 'Kullu', 'Paonta Sahib', 'Hamirpur'],
  3: ['Ludhiana', 'Amritsar', 'Jalandhar', 'Mohali', 'Patiala', 'Bathinda', 'Rajpura', 'Phagwara', 'Hoshiarpur', 'Pathankot', 'Moga', 'Firozpur', 'Khanna'],
  4: ['Chandigarh'],
  5: ['Dehradun', 'Haridwar', 'Rudrapur', 'Haldwani', 'Roorkee', 'Kashipur', 'Sitarganj', 'Rishikesh', 'Pantnagar'],
  6: ['Gurugram', 'Faridabad', 'Manesar', 'Panipat', 'Sonipat', 'Rohtak', 'Hisar', 'Karnal', 'Ambala', 'Bahadurgarh', 'Rewari', 'Dharuhera', 'Yamunanagar', 'Kundli', 'Bawal', 'Panchkula', 'Sirsa'],
  7: ['New Delhi', 'Delhi', 'Okhla', 'Narela', 'Bawana', 'Mundka', 'Kapashera', 'Shahdara'],
  8: ['Jaipur', 'Jodhpur', 'Udaipur', 'Kota', 'Ajmer', 'Bikaner', 'Bhilwara', 'Alwar', 'Neemrana', 'Bhiwadi', 'Sri Ganganagar', 'Sikar', 'Pali', 'Chittorgarh', 'Kishangarh', 'Beawar'],
  9: ['Lucknow', 'Kanpur', 'Noida', 'Greater Noida', 'Ghaziabad', 'Agra', 'Varanasi', 'Prayagraj', 'Meerut', 'Aligarh', 'Bareilly', 'Moradabad', 'Gorakhpur', 'Jhansi', 'Mathura', 'Saharanpur', 'Firozabad', 'Ayodhya', 'Unnao', 'Sitapur'],
  10: ['Patna', 'Gaya', 'Bhagalpur', 'Muzaffarpur', 'Darbhanga', 'Purnia', 'Begusarai', 'Hajipur', 'Arrah', 'Bihar Sharif', 'Katihar'],
  11: ['Gangtok', 'Namchi', 'Rangpo', 'Singtam', 'Jorethang'],
  12: ['Itanagar', 'Naharlagun', 'Pasighat', 'Tawang', 'Ziro'],
  13: ['Dimapur', 'Kohima', 'Mokokchung', 'Wokha'],
  14: ['Imphal', 'Thoubal', 'Churachandpur', 'Kakching'],
  15: ['Aizawl', 'Lunglei', 'Champhai', 'Kolasib'],
  16: ['Agartala', 'Udaipur', 'Dharmanagar', 'Kailashahar', 'Ambassa'],
  17: ['Shillong', 'Tura', 'Jowai', 'Byrnihat'],
  18: ['Guwahati', 'Dibrugarh', 'Silchar', 'Jorhat', 'Tezpur', 'Tinsukia', 'Nagaon', 'Bongaigaon', 'Numaligarh', 'Goalpara', 'Dhubri'],
  19: ['Kolkata', 'Howrah', 'Durgapur', 'Asansol', 'Siliguri', 'Haldia', 'Kharagpur', 'Bardhaman', 'Malda', 'Kalyani', 'Dankuni', 'Baharampur', 'Jalpaiguri'],
  20: ['Ranchi', 'Jamshedpur', 'Dhanbad', 'Bokaro Steel City', 'Hazaribagh', 'Deoghar', 'Giridih', 'Ramgarh', 'Adityapur'],
  21: ['Bhubaneswar', 'Cuttack', 'Rourkela', 'Sambalpur', 'Berhampur', 'Paradip', 'Jharsuguda', 'Angul', 'Balasore', 'Jajpur', 'Puri'],
  22: ['Raipur', 'Bhilai', 'Bilaspur', 'Korba', 'Durg', 'Raigarh', 'Rajnandgaon', 'Jagdalpur'],
  23: ['Indore', 'Bhopal', 'Jabalpur', 'Gwalior', 'Ujjain', 'Pithampur', 'Dewas', 'Sagar', 'Ratlam', 'Satna', 'Rewa', 'Mandideep', 'Katni', 'Singrauli'],
  24: ['Ahmedabad', 'Surat', 'Vadodara', 'Rajkot', 'Bhavnagar', 'Jamnagar', 'Gandhinagar', 'Anand', 'Bharuch', 'Ankleshwar', 'Vapi', 'Mundra', 'Gandhidham', 'Morbi', 'Mehsana', 'Navsari', 'Valsad', 'Junagadh', 'Sanand', 'Halol', 'Dahej', 'Hazira'],
  26: ['Silvassa', 'Daman', 'Diu', 'Naroli'],
  27: ['Mumbai', 'Pune', 'Nagpur', 'Nashik', 'Chhatrapati Sambhajinagar', 'Thane', 'Navi Mumbai', 'Bhiwandi', 'Kolhapur', 'Solapur', 'Amravati', 'Nanded', 'Sangli', 'Jalgaon', 'Akola', 'Latur', 'Ahilyanagar', 'Chakan', 'Panvel', 'Vasai-Virar', 'Ratnagiri', 'Satara', 'Dhule', 'Chandrapur'],
  29: ['Bengaluru', 'Mysuru', 'Mangaluru', 'Hubballi', 'Belagavi', 'Kalaburagi', 'Davanagere', 'Ballari', 'Shivamogga', 'Tumakuru', 'Udupi', 'Hassan', 'Vijayapura', 'Bidar', 'Raichur', 'Hosapete', 'Chitradurga', 'Kolar', 'Hoskote'],
  30: ['Panaji', 'Margao', 'Vasco da Gama', 'Mapusa', 'Ponda', 'Verna'],
  31: ['Kavaratti', 'Agatti', 'Minicoy'],
  32: ['Kochi', 'Thiruvananthapuram', 'Kozhikode', 'Thrissur', 'Kollam', 'Kannur', 'Palakkad', 'Alappuzha', 'Malappuram', 'Kottayam', 'Kasaragod'],
  33: ['Chennai', 'Coimbatore', 'Madurai', 'Tiruchirappalli', 'Salem', 'Tiruppur', 'Erode', 'Vellore', 'Tirunelveli', 'Thoothukudi', 'Hosur', 'Sriperumbudur', 'Kanchipuram', 'Karur', 'Namakkal', 'Thanjavur', 'Dindigul', 'Cuddalore', 'Nagercoil', 'Krishnagiri'],
  34: ['Puducherry', 'Karaikal', 'Mahe', 'Yanam'],
  35: ['Sri Vijaya Puram', 'Car Nicobar', 'Mayabunder'],
  36: ['Hyderabad', 'Secunderabad', 'Warangal', 'Karimnagar', 'Nizamabad', 'Khammam', 'Ramagundam', 'Mahbubnagar', 'Shamshabad', 'Medchal', 'Patancheru', 'Sangareddy', 'Zaheerabad'],
  37: ['Visakhapatnam', 'Vijayawada', 'Guntur', 'Nellore', 'Tirupati', 'Kakinada', 'Kurnool', 'Anantapur', 'Rajahmundry', 'Kadapa', 'Sri City', 'Ongole', 'Eluru', 'Krishnapatnam'],
  38: ['Leh', 'Kargil'],
};

export const CITIES: readonly CityRow[] = Object.entries(BY_STATE).flatMap(([stateId, names]) =>
  names.map((name, i) => ({ id: Number(stateId) * 100 + i + 1, name, stateId: Number(stateId) })),
);
